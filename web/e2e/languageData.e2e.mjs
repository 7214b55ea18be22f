// End-to-end test of data in the reader's language: admin
// names a case type in Swedish and English on Settings → Knowledge sectors →
// Case types, reached by clicking; the customer, reading English, creates a
// case of that type with an address in Norway by clicking, and reads the type
// and the country in English on the case list and details, then in Swedish
// after switching the language. Screenshots of the case details at
// 1366×900 and 390×844 in both languages go to
// web/test-results/language-data-*.png.
// Uses case-customer@example.com (SEED_E2E=1) and admin@example.com.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { byTestId, chooseLanguage, RESULTS_DIR, url } from './helpers.mjs';
import { caseWorld } from './caseWorld.mjs';

async function shots(page, name) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(RESULTS_DIR, `language-data-${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: join(RESULTS_DIR, `language-data-${name}-1366.png`), fullPage: true });
}

/** The text of the case details' field `label`. */
const field = (page, label) =>
  page.locator(`${byTestId('case-fields')} .ant-descriptions-item-label`, { hasText: label }).locator('xpath=following-sibling::*[1]').innerText();

describe('data in the reader language', { timeout: 180_000 }, () => {
  test('a case type named in both languages and a country code read in English and Swedish', async () => {
    const w = await caseWorld();
    const { cp, ap } = w;
    const stamp = Date.now();
    const sv = `Skatterätt ${stamp}`;
    const en = `Tax law ${stamp}`;
    try {
      // Admin: Settings → Knowledge sectors → the Case types tab, by clicking.
      await ap.goto(url('/admin/'));
      await ap.locator(byTestId('side-menu')).locator('button[aria-expanded]', { hasText: 'Inställningar' }).click();
      await ap.locator(byTestId('menu-item-settings-knowledge-sectors')).click();
      await ap.locator(byTestId('settings-tab-caseTypes')).click();
      await ap.locator(byTestId('named-list-caseTypes')).waitFor();
      await ap.locator(byTestId('named-new-name')).fill(sv);
      await ap.locator(byTestId('named-new-name-en')).fill(en);
      await ap.locator(byTestId('named-add')).click();
      await ap.locator(byTestId('named-name-en'), { hasText: en }).waitFor();

      // The customer reads English and creates a case of that type in Norway.
      await cp.goto(url('/user/'));
      await chooseLanguage(cp, 'en');
      await cp.locator(byTestId('menu-item-cases')).click();
      await cp.locator(byTestId('case-create')).first().click();
      await cp.locator(byTestId('case-form')).waitFor();
      const subject = `E2E language ${stamp}`;
      await cp.locator(byTestId('case-subject')).fill(subject);
      await cp.locator(byTestId('case-description')).fill('Which tax applies to the sale?');
      await cp.locator(byTestId('case-type')).click();
      await cp.keyboard.type(`Tax law ${stamp}`);
      await cp.locator('.ant-select-item-option', { hasText: en }).first().click();
      await cp.locator('input[id$="address_1"]').fill('Karl Johans gate 1');
      await cp.locator('input[id$="city"]').fill('Oslo');
      // The country list names countries in English; Sweden (the default) is replaced by Norway.
      await cp.locator(byTestId('case-country')).click();
      await cp.keyboard.type('Norw');
      await cp.locator('.ant-select-item-option', { hasText: /^Norway$/ }).click();
      await cp.locator('input[id$="post_code"]').fill('0154');
      const created = cp.waitForResponse((r) => r.url().endsWith('/api/case/create/by/customer/') && r.request().method() === 'POST');
      await cp.locator(byTestId('case-submit')).click();
      const res = await created;
      const kase = await res.json();
      assert.equal(res.status(), 201, JSON.stringify(kase));
      assert.equal(kase.address.country, 'NO', 'stored as its code');
      await cp.waitForURL((u) => u.pathname === `/user/cases/details/${kase.uid}`);
      assert.equal(await field(cp, 'Type of case'), en);
      assert.match(await field(cp, 'Address'), /Karl Johans gate 1, 0154, Oslo, Norway/);
      await shots(cp, 'en');

      // In Swedish the same case reads in Swedish.
      await chooseLanguage(cp, 'sv');
      await cp.locator(byTestId('case-fields'), { hasText: sv }).waitFor();
      assert.equal(await field(cp, 'Ärendetyp'), sv);
      assert.match(await field(cp, 'Adress'), /Oslo, Norge/);
      await shots(cp, 'sv');

      // The list (drafts tab) names the type in the reader's language too.
      await cp.locator(byTestId('menu-item-cases')).click();
      await cp.locator(byTestId('case-tab-draft')).click();
      await cp.locator('tr[data-row-key]', { hasText: subject }).filter({ hasText: sv }).waitFor();
      await chooseLanguage(cp, 'en');
      await cp.locator('tr[data-row-key]', { hasText: subject }).filter({ hasText: en }).waitFor();
      await chooseLanguage(cp, 'sv');
    } catch (err) {
      mkdirSync(RESULTS_DIR, { recursive: true });
      await cp.screenshot({ path: join(RESULTS_DIR, 'language-data-failure.png'), fullPage: true }).catch(() => undefined);
      throw err;
    } finally {
      await w.close();
    }
  });
});
