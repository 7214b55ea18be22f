// End-to-end test of a contact's "view all cases" and "view time bank"
// permissions (spec §3): the demo customer creates a contact with neither;
// the contact signs in, sees no hours left on its dashboard, none of the
// company's cases in its lists nor by address, only the case it opens
// itself, and on the statistics page only its own cases. Then "or follows":
// the customer makes another such contact follow one of the company's
// cases by clicking on the case's page; the contact signs in, finds it in
// its list, opens it, and stops following. Screens at 1366×900 and
// 390×844, Swedish and English, go to test-results/.
//
// Each run creates a new contact (unique address); the demo accounts are not changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  apiCall,
  byTestId,
  chooseLanguage,
  chooseOption,
  login,
  logout,
  newestMailTo,
  RESULTS_DIR,
  setPasswordFromMail,
  storedSession,
  url,
  withPage,
} from './helpers.mjs';

const CUSTOMER_EMAIL = 'customer@example.com';
const CONTACT_PASSWORD = 'Contact-pass-2026!';
const isPath = (path) => (u) => u.pathname === path;

/**
 * On the customer's new-contact form: a contact with only add_case saved, then signed out; the contact
 * chooses its password through the mailed link. Ends signed out.
 */
async function saveContact(page, email, first, last) {
  await page.locator(byTestId('contact-first-name')).fill(first);
  await page.locator(byTestId('contact-last-name')).fill(last);
  await page.locator(byTestId('contact-email')).fill(email);
  await page.locator(byTestId('contact-permission-add_case')).check();
  const before = await newestMailTo(email);
  await page.locator(byTestId('contact-submit')).click();
  await page.locator(byTestId('contacts-created')).waitFor();
  await logout(page);
  await setPasswordFromMail(page, email, before, CONTACT_PASSWORD);
}

/** The signed-in customer opens the new-contact form (by address). */
async function openContactForm(page) {
  await page.goto(url('/user/users/create/'));
  await page.locator(byTestId('contact-form')).waitFor();
}

/** The signed-in customer creates a contact with only add_case (saveContact). Ends signed out. */
async function createContact(page, email, first, last) {
  await openContactForm(page);
  await saveContact(page, email, first, last);
}

describe('contact permissions', () => {
  test('a contact without view all cases and view time bank sees only its own cases and no time bank', { timeout: 240_000 }, async () => {
    const email = `e2e-own-cases-${Date.now()}@example.com`;
    const subject = `Eget ärende ${Date.now()}`;
    mkdirSync(RESULTS_DIR, { recursive: true });
    await withPage('contact-permissions', async (page) => {
      // --- the customer: its company's cases, then the contact with neither permission
      await login(page, CUSTOMER_EMAIL);
      await page.waitForURL(isPath('/user/'));
      const company = (await apiCall(page, 'GET', '/case/list/?status=all')).body.results;
      assert.ok(company.length > 0, 'the demo company has cases (SEED_DEMO_CASES=1)');
      const types = await apiCall(page, 'GET', '/typeofcase/list/');
      assert.equal(types.status, 200, JSON.stringify(types.body));
      await openContactForm(page);
      // Spec §3's labels, unchecked for a new contact.
      for (const [code, label] of [['view_all_cases', 'Se alla ärenden'], ['view_time_bank', 'Se tidbanken']]) {
        const box = page.locator(byTestId(`contact-permission-${code}`));
        assert.equal(await box.isChecked(), false, code);
        assert.equal((await page.locator('label', { has: box }).textContent()).trim(), label);
      }
      await page.screenshot({ path: join(RESULTS_DIR, 'contact-permissions-form-sv-1366.png'), fullPage: true });
      await saveContact(page, email, 'Olle', 'Egen');

      // --- the contact: no hours left, none of the company's cases
      await login(page, email, CONTACT_PASSWORD);
      await page.waitForURL(isPath('/customer_contact/'));
      assert.deepEqual([...(await storedSession(page)).permission], ['add_case']);
      await page.locator(byTestId('dash-recent')).waitFor();
      assert.equal(await page.locator(byTestId('dash-gauges')).count(), 0, 'no hours-left card');
      const dashboard = (await apiCall(page, 'GET', '/dashboard/')).body;
      assert.deepEqual(dashboard.subscriptions, [], 'no hours left in the answer either');
      assert.deepEqual(dashboard.recent, []);
      const services = (await apiCall(page, 'GET', '/subscription/services/')).body;
      assert.ok(!services.purchased_services.some((r) => r.service.id === 1), 'no hour row');
      assert.deepEqual((await apiCall(page, 'GET', '/case/list/?status=all')).body.results, []);
      for (const c of company.slice(0, 3)) {
        assert.equal((await apiCall(page, 'GET', `/case/${c.uid}/`)).status, 404, `${c.case_number} does not exist for it`);
        assert.equal((await apiCall(page, 'GET', `/case/hour/list/?case=${c.uid}`)).status, 404);
      }

      // --- its own case: listed and open to it
      const own = await apiCall(page, 'POST', '/case/create/by/customer/', {
        subject,
        description: 'Tvist om hyra',
        type: types.body[0].id,
        address: { address_1: 'Storgatan 1', city: 'Stockholm', country: 'SE', post_code: '11122' },
      });
      assert.equal(own.status, 201, JSON.stringify(own.body));
      await page.goto(url('/customer_contact/cases/draft/'));
      await page.locator(byTestId(`case-link-${subject}`)).waitFor();
      const rows = await page.locator(`${byTestId('cases-table')} tbody tr.ant-table-row`).count();
      assert.equal(rows, 1, 'only its own case is listed');
      assert.deepEqual((await apiCall(page, 'GET', '/case/list/?status=all')).body.results.map((c) => c.uid), [own.body.uid]);

      // --- statistics: its own cases, none of the company's figures
      await page.goto(url('/customer_contact/statistics/activity/'));
      await page.locator(byTestId('statistics-own-cases-only')).waitFor();
      assert.equal(await page.locator(byTestId('statistics-table')).count(), 0);
      assert.equal((await apiCall(page, 'GET', '/statistic/activity/')).status, 403);

      // --- the screens at both sizes in both languages
      for (const lang of ['sv', 'en']) {
        await page.goto(url('/customer_contact/'));
        await chooseLanguage(page, lang);
        for (const [w, h] of [[1366, 900], [390, 844]]) {
          await page.setViewportSize({ width: w, height: h });
          for (const [name, path, ready] of [
            ['dashboard', '/customer_contact/', 'dash-recent'],
            ['statistics', '/customer_contact/statistics/activity/', 'statistics-own-cases-only'],
            ['drafts', '/customer_contact/cases/draft/', `case-link-${subject}`],
          ]) {
            await page.goto(url(path));
            await page.locator(byTestId(ready)).first().waitFor();
            assert.equal(await page.locator(byTestId('dash-gauges')).count(), 0);
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            assert.ok(overflow <= 0, `${name} ${lang} ${w}: the page scrolls sideways by ${overflow}px`);
            await page.screenshot({ path: join(RESULTS_DIR, `contact-permissions-${name}-${lang}-${w}.png`), fullPage: true });
            if (name === 'statistics') {
              const note = (await page.locator(byTestId('statistics-own-cases-only')).textContent()) ?? '';
              assert.match(note, lang === 'en' ? /View all cases/ : /Se alla ärenden/);
            }
          }
        }
      }
    });
  });

  test('a contact without view all cases sees a case it follows: the customer adds it by clicking', { timeout: 300_000 }, async () => {
    const email = `e2e-follower-${Date.now()}@example.com`;
    mkdirSync(RESULTS_DIR, { recursive: true });
    await withPage('contact-follows', async (page) => {
      await login(page, CUSTOMER_EMAIL);
      await page.waitForURL(isPath('/user/'));
      // A company case in progress: the contact's default list ("active") shows it.
      const company = (await apiCall(page, 'GET', '/case/list/?status=active')).body.results;
      assert.ok(company.length > 0, 'the demo company has a case in progress (SEED_DEMO_CASES=1)');
      const c = company[0];
      await createContact(page, email, 'Fia', 'Följare');
      const contactUid = await (async () => {
        await login(page, CUSTOMER_EMAIL);
        await page.waitForURL(isPath('/user/'));
        const followers = (await apiCall(page, 'GET', `/case/followers/${c.uid}/`)).body;
        const me = followers.candidates.find((x) => x.name === 'Fia Följare');
        assert.ok(me, `the new contact is among those the customer may add: ${JSON.stringify(followers)}`);
        return me.uid;
      })();

      // --- the customer: the case's page, the followers card, pick the contact, add
      await page.goto(url(`/user/cases/details/${c.uid}`));
      await page.locator(byTestId('case-followers')).waitFor();
      assert.match((await page.locator(byTestId('case-followers')).textContent()) ?? '', /Följare/);
      await chooseOption(page, byTestId('case-follower-pick'), 'Fia Följare');
      await page.locator(byTestId('case-follower-add')).click();
      await page.locator(byTestId(`case-follower-${contactUid}`)).waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, 'contact-follows-customer-sv-1366.png'), fullPage: true });
      await logout(page);

      // --- the contact: the followed case in its list and open to it
      await login(page, email, CONTACT_PASSWORD);
      await page.waitForURL(isPath('/customer_contact/'));
      for (const lang of ['sv', 'en']) {
        await chooseLanguage(page, lang);
        for (const [w, h] of [[1366, 900], [390, 844]]) {
          await page.setViewportSize({ width: w, height: h });
          await page.goto(url('/customer_contact/cases/'));
          await page.locator(byTestId(`case-link-${c.subject}`)).first().waitFor();
          await page.screenshot({ path: join(RESULTS_DIR, `contact-follows-list-${lang}-${w}.png`), fullPage: true });
          await page.locator(byTestId(`case-link-${c.subject}`)).first().click();
          await page.waitForURL(isPath(`/customer_contact/cases/details/${c.uid}`));
          await page.locator(byTestId('case-follower-stop')).waitFor();
          const card = (await page.locator(byTestId('case-followers')).textContent()) ?? '';
          assert.match(card, lang === 'en' ? /Followers[\s\S]*Stop following/ : /Följare[\s\S]*Sluta följa/);
          assert.equal(await page.locator(byTestId('case-follower-pick')).count(), 0, 'a follower brings in nobody');
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `case details ${lang} ${w}: the page scrolls sideways by ${overflow}px`);
          const stop = await page.locator(byTestId('case-follower-stop')).boundingBox();
          assert.ok(stop && stop.x >= 0 && stop.x + stop.width <= w, `${lang} ${w}: "stop following" lies within the screen`);
          await page.locator(byTestId('case-followers')).scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(RESULTS_DIR, `contact-follows-details-${lang}-${w}.png`) });
        }
      }
      // Stops following: back on its list, the case gone from it and closed to it.
      await page.locator(byTestId('case-follower-stop')).click();
      await page.locator(byTestId('case-follower-stop-confirm')).click();
      await page.waitForURL(isPath('/customer_contact/cases/'));
      assert.deepEqual((await apiCall(page, 'GET', '/case/list/?status=all')).body.results, []);
      assert.equal((await apiCall(page, 'GET', `/case/${c.uid}/`)).status, 404);
    });
  });
});
