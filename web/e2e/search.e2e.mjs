// End-to-end test of the search by identity number: a lawyer enters a counterpart's
// organisationsnummer on a new case (a mistyped one is refused on the form
// by its check digit), and another lawyer finds that case through the
// header's conflict search box by the number typed without a dash, and by
// its name written otherwise (the page says why it matched).
// Uses case-customer@example.com, admin, lawyer@example.com and
// lawyer2@example.com (seeded with SEED_E2E=1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, newPage, signIn, url } from './helpers.mjs';
import { caseWorld, CASE_TYPE } from './caseWorld.mjs';

/** A fresh, valid organisationsnummer (Luhn) that no other run used. */
function freshOrganisationsnummer() {
  const nine = `55${String(Date.now()).slice(-7)}`;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let d = Number(nine[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  const check = (10 - (sum % 10)) % 10;
  return { dashed: `${nine.slice(0, 6)}-${nine.slice(6)}${check}`, digits: `${nine}${check}`, wrong: `${nine.slice(0, 6)}-${nine.slice(6)}${(check + 1) % 10}` };
}

describe('conflict search by identity number', { timeout: 180_000 }, () => {
  test('a lawyer enters a counterpart organisationsnummer; another lawyer finds the case by the number without a dash', async () => {
    const w = await caseWorld();
    const other = await newPage();
    try {
      const { lp } = w;
      const number = freshOrganisationsnummer();
      const counterpart = `Motpart Fastigheter ${number.digits.slice(-4)} AB`;
      const subject = `E2E conflict ${Date.now()}`;

      await lp.goto(url('/lawyer/cases/create/'));
      await lp.locator(byTestId('case-form')).waitFor();
      await lp.locator(byTestId('case-customer')).click();
      await lp.keyboard.type('Cecilia');
      await lp.locator('.ant-select-item-option', { hasText: 'Cecilia' }).first().click();
      await lp.locator(byTestId('case-subject')).fill(subject);
      await lp.locator(byTestId('case-description')).fill('Tvist om hyra.');
      await lp.locator(byTestId('case-hours')).fill('3');
      await lp.locator(byTestId('case-type')).click();
      await lp.locator('.ant-select-item-option', { hasText: CASE_TYPE }).first().click();
      await lp.locator(byTestId('case-counterpart')).fill(counterpart);

      // A mistyped number (wrong check digit) is refused on the form.
      await lp.locator(byTestId('case-counterpart-identity-number')).fill(number.wrong);
      await lp.locator(byTestId('case-submit')).click();
      await lp.getByText('Inte ett giltigt organisations- eller personnummer').first().waitFor();

      // The right one, with its dash, is saved.
      await lp.locator(byTestId('case-counterpart-identity-number')).fill(number.dashed);
      const created = lp.waitForResponse((r) => r.url().includes('/api/case/create') && r.request().method() === 'POST');
      await lp.locator(byTestId('case-submit')).click();
      const res = await created;
      const kase = await res.json();
      assert.equal(res.status(), 201, JSON.stringify(kase));
      assert.equal(kase.counterpart_identity_number, number.dashed);

      // Another lawyer types the number without a dash into the header box.
      const op = other.page;
      await signIn(op, 'lawyer2@example.com', '/lawyer/');
      const box = op.locator(`input${byTestId('conflict-search')}, ${byTestId('conflict-search')} input`).first();
      await box.fill(number.digits);
      await box.press('Enter');
      await op.waitForURL((u) => u.pathname === '/lawyer/interest/' && u.searchParams.get('search') === number.digits);
      const hit = op.locator(byTestId('conflict-hit'), { hasText: counterpart });
      await hit.waitFor();
      const text = await hit.innerText();
      assert.ok(text.includes(kase.case_number), text);
      assert.ok(text.includes('Identitetsnummer stämmer'), text);
      assert.ok(text.includes(number.dashed), text);

      // By name, with another company form, the words in another order and
      // Fastigheter spelled out of Swedish: found, and the page says why.
      const byName = 'Fastigheeter Motpart HB';
      await box.fill(byName);
      await box.press('Enter');
      await op.waitForURL((u) => u.pathname === '/lawyer/interest/' && u.searchParams.get('search') === byName);
      const named = op.locator(byTestId('conflict-hit'), { hasText: counterpart });
      await named.waitFor();
      const why = await named.locator(byTestId('conflict-hit-reasons')).innerText();
      assert.equal(why, 'Varför: namnet stavat på ett annat sätt, bolagsformen skiljer sig och räknas inte, orden i en annan ordning');
    } finally {
      await other.context.close();
      await w.close();
    }
  });
});
