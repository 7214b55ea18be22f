// The profile page's "mail when something happens" setting: on by default,
// turned off it stays off (after a reload, and on the server), readable and
// usable on a phone; an unsubscribe link that is not a real one shows the
// invalid-link screen. The test leaves the lawyer's setting as it found it
// (on, Swedish), and starts by repairing what an interrupted run may have left.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/mailSettings.e2e.mjs
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, apiCall, byTestId, chooseLanguage, signIn, url, withPage } from './helpers.mjs';

const LAWYER = 'lawyer@example.com';
const switchIn = (state) => `${byTestId('profile-mail-on')}[aria-checked="${state}"]:not([disabled])`;

async function save(page) {
  await page.locator(byTestId('profile-mail-save')).click();
  await page.locator(byTestId('profile-mail-success')).waitFor();
}

describe('mail when something happens', () => {
  test('the profile setting is on by default, turns off and on, and fits a phone', () =>
    withPage('mail-setting', async (page) => {
      await signIn(page, LAWYER, '/lawyer/');
      await apiCall(page, 'PUT', '/profile/mail/', { on: true, language: 'sv' });
      await page.goto(url('/lawyer/profile/'));
      await page.locator(switchIn('true')).waitFor();
      assert.match(await page.locator(byTestId('profile-mail')).innerText(), /Högst ett mejl per ärende var 15:e minut/);

      await page.locator(byTestId('profile-mail-on')).click();
      await save(page);
      await page.reload();
      await page.locator(switchIn('false')).waitFor();
      assert.deepEqual((await apiCall(page, 'GET', '/profile/mail/')).body, { on: false, language: 'sv' });

      // In English, and on a phone: every control in view, nothing wider than the screen.
      await chooseLanguage(page, 'en');
      await page.setViewportSize({ width: 390, height: 844 });
      assert.match(await page.locator(byTestId('profile-mail')).innerText(), /At most one mail per case every 15 minutes/);
      for (const id of ['profile-mail-on', 'profile-mail-language', 'profile-mail-save']) {
        const box = await page.locator(byTestId(id)).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${id} within the screen: ${JSON.stringify(box)}`);
      }
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scrolling');
      mkdirSync(RESULTS_DIR, { recursive: true });
      await page.locator(byTestId('profile-mail')).screenshot({ path: join(RESULTS_DIR, 'mail-setting-390-en.png') });

      await page.locator(byTestId('profile-mail-on')).click();
      await save(page);
      assert.deepEqual((await apiCall(page, 'GET', '/profile/mail/')).body, { on: true, language: 'sv' });
      await chooseLanguage(page, 'sv');
    }));

  test('an unsubscribe link that is not a real one shows the invalid-link screen', () =>
    withPage('unsubscribe-invalid', async (page) => {
      await page.goto(url('/unsubscribe?token=not-a-real-token'));
      await page.locator(byTestId('invalid-url')).waitFor();
      await page.goto(url('/unsubscribe'));
      await page.locator(byTestId('invalid-url')).waitFor();
    }));
});
