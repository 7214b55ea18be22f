// End-to-end tests of the public side: the landing page sells (the
// public packages and service plans with SEK prices from public/offer/), its
// footer and the registration form link the terms and privacy policy served
// by public/, and a registration made from the landing page records the
// versions it showed (read back as the activated customer).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFetch as api, PASSWORD, byTestId, url, waitForNewMail, withPage } from './helpers.mjs';

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const CUSTOMER_PASSWORD = 'Villkor-lösen-2026-ok';


async function tokenOf(email, password = PASSWORD) {
  const { status, body } = await api('POST', '/token/', { email, password });
  assert.equal(status, 200, JSON.stringify(body));
  return body.access_token;
}

describe('landing page, terms and registration', () => {
  test('the landing page shows the offer in SEK and links the terms; /terms shows public/ in both languages', { timeout: 120_000 }, async () => {
    const terms = await api('GET', '/public/terms/');
    assert.equal(terms.status, 200, 'the seed publishes terms version 1');
    await withPage('content-landing', async (page) => {
      await page.goto(url('/'));
      await page.locator(`${byTestId('landing-offer')} .landing-offer-price`).first().waitFor();
      const prices = await page.locator(`${byTestId('landing-offer')} .landing-offer-price`).allTextContents();
      assert.ok(prices.length >= 1 && prices.every((p) => p.includes('SEK')), prices.join());
      assert.equal((await page.locator(byTestId('landing-register')).textContent()).trim(), 'Registrera dig');
      // English: the same offer, still in SEK, the texts in English.
      await page.locator(byTestId('language-switch')).click();
      await page.locator(byTestId('language-option-en')).click();
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      assert.equal((await page.locator(byTestId('landing-register')).textContent()).trim(), 'Register');
      const enPrices = await page.locator(`${byTestId('landing-offer')} .landing-offer-price`).allTextContents();
      assert.equal(enPrices.length, prices.length);
      assert.ok(enPrices.every((p) => p.includes('SEK')), enPrices.join());
      await page.locator(byTestId('language-switch')).click();
      await page.locator(byTestId('language-option-sv')).click();
      await page.waitForFunction(() => document.documentElement.lang === 'sv');

      await page.locator(byTestId('footer-terms')).click();
      await page.waitForURL((u) => u.pathname === '/terms');
      await page.locator(`${byTestId('legal-text')} h1`).waitFor();
      const svTitle = await page.locator(`${byTestId('legal-text')} h1`).textContent();
      assert.equal(svTitle, /^#\s*(.+)$/m.exec(terms.body.sv)[1]);
      // English: the same page in the other language.
      await page.locator(byTestId('language-switch')).click();
      await page.locator(byTestId('language-option-en')).click();
      await page.waitForFunction(
        (title) => document.querySelector('[data-testid="legal-text"] h1')?.textContent === title,
        /^#\s*(.+)$/m.exec(terms.body.en)[1],
      );
      await page.goto(url('/privacy'));
      await page.locator(`${byTestId('legal-text')} h1`).waitFor();
      assert.ok((await page.locator(byTestId('legal-version')).textContent()).includes('Version'));
    });
  });

  test('from the landing page to a registration that records the accepted terms version', { timeout: 180_000 }, async () => {
    const email = `villkor-${unique()}@example.com`;
    const current = (await api('GET', '/public/terms/')).body.version;
    const privacy = (await api('GET', '/public/privacy/')).body.version;
    let sent = null;
    await withPage('content-register', async (page) => {
      await page.goto(url('/'));
      await page.locator(byTestId('landing-register')).click();
      await page.waitForURL((u) => u.pathname === '/registration');
      await page.locator(byTestId('registration-form')).waitFor();
      assert.equal(await page.locator(byTestId('reg-terms-link')).getAttribute('href'), '/terms');
      assert.equal(await page.locator(byTestId('reg-privacy-link')).getAttribute('href'), '/privacy');
      await page.locator(`label:has(${byTestId('reg-type-individual')})`).click();
      await page.locator(byTestId('reg-first-name')).fill('Vera');
      await page.locator(byTestId('reg-last-name')).fill('Villkor');
      await page.locator(byTestId('reg-email')).fill(email);
      await page.locator(byTestId('reg-phone')).fill('070-123 45 67');
      await page.locator(byTestId('reg-password')).fill(CUSTOMER_PASSWORD);
      await page.locator(byTestId('reg-confirm-password')).fill(CUSTOMER_PASSWORD);
      await page.locator(byTestId('reg-profile-address1')).fill('Storgatan 9');
      await page.locator(byTestId('reg-profile-city')).fill('Lund');
      await page.locator(byTestId('reg-profile-postcode')).fill('22100');
      for (const id of ['reg-terms', 'reg-privacy']) {
        await page.locator(`label:has(${byTestId(id)})`).click();
        await page.waitForFunction((sel) => document.querySelector(sel)?.checked === true, byTestId(id));
      }
      const request = page.waitForRequest((r) => r.url().endsWith('/api/registration/') && r.method() === 'POST');
      await page.locator(byTestId('reg-submit')).click();
      sent = JSON.parse((await request).postData());
      await page.locator(byTestId('registration-success')).waitFor();
    });
    assert.equal(sent.terms_version, current, 'the form sends the version its link showed');
    assert.equal(sent.privacy_version, privacy);

    // Approved and activated, the customer reads back what it accepted, and nothing is pending.
    const admin = await tokenOf('admin@example.com');
    const list = await api('GET', `/customer/list/?status=pending&search=${encodeURIComponent(email)}`, undefined, admin);
    const uid = list.body.results.find((c) => c.email === email).uid;
    assert.equal((await api('POST', `/customer/approve/${uid}/`, {}, admin)).status, 200);
    const mail = await waitForNewMail(email, null);
    const token = /token=([^\s&]+)/.exec(mail.body)[1];
    const act = await api('POST', '/customer/activation/', { token, password: CUSTOMER_PASSWORD, confirm_password: CUSTOMER_PASSWORD });
    assert.equal(act.status, 200, JSON.stringify(act.body));
    const me = await tokenOf(email, CUSTOMER_PASSWORD);
    const accepted = (await api('GET', '/legal/acceptances/', undefined, me)).body;
    const terms = accepted.find((a) => a.kind === 'terms');
    assert.equal(terms?.version, current, JSON.stringify(accepted));
    assert.ok(Date.now() - Date.parse(terms.accepted_at) < 10 * 60_000, 'accepted when registering');
    assert.deepEqual((await api('GET', '/legal/pending/', undefined, me)).body, []);
  });
});
