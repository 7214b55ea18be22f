// End-to-end tests of the account flows (spec §4): two-factor sign-in with the
// e-mailed code, forgot password with the mailed recovery link, change
// password, log out. Run against a gateway that serves web/dist and the API,
// seeds twofactor@example.com and recovery@example.com (customers, password
// Demo-2026-pass!) and lists sent mail at /local/outbox.json.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/
//
// Each test leaves its account as it found it (two-factor off, the demo
// password back), and starts by repairing what an interrupted earlier run may
// have left behind, so the suite can be rerun against the same gateway.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PASSWORD,
  byTestId,
  codeFrom,
  enterCode,
  fillLogin,
  login,
  logout,
  newestMailTo,
  onBaseUrl,
  openTwoFactorPage,
  openUserMenuItem,
  storedSession,
  url,
  waitForNewMail,
  withPage,
} from './helpers.mjs';

const TWO_FACTOR_EMAIL = 'twofactor@example.com';
const RECOVERY_EMAIL = 'recovery@example.com';
const NEW_PASSWORD = 'New-pass-2026-xyz';
const PREFIX = '/user/';

const isPath = (path) => (u) => u.pathname === path;

/**
 * Log in; if the account has two-factor on, finish with the mailed code.
 * Ends on the dashboard.
 */
async function loginPassingCode(page, email, password = PASSWORD) {
  const before = await newestMailTo(email);
  await login(page, email, password);
  await page.waitForURL((u) => u.pathname === PREFIX || u.pathname === '/authentication');
  if (new URL(page.url()).pathname === '/authentication') {
    await page.locator(byTestId('twofa-form')).waitFor();
    await enterCode(page, codeFrom(await waitForNewMail(email, before)));
    await page.waitForURL(isPath(PREFIX));
  }
  await page.locator(byTestId('dashboard-page')).waitFor();
}

/** Turning the e-mailed code off asks for the current password. */
async function turnOffWithPassword(page) {
  await page.locator(byTestId('twofa-method-off')).click();
  await page.locator(byTestId('twofa-off-confirm')).waitFor();
  await page.locator(byTestId('twofa-off-password')).fill(PASSWORD);
  await page.locator(byTestId('twofa-off-submit')).click();
}

const isOn = async (status) => (await status.getAttribute('data-enabled')) === 'true';

describe('account', () => {
  test('two-factor: enable → logged out → code login (wrong code, then the mailed one) → disable', { timeout: 120_000 }, async () => {
    await withPage('account-two-factor', async (page) => {
      await loginPassingCode(page, TWO_FACTOR_EMAIL);
      let status = await openTwoFactorPage(page, PREFIX);
      if (await isOn(status)) {
        // Left on by an interrupted run: turn it off first (that does not log out).
        await turnOffWithPassword(page);
        await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-enabled') === 'false', byTestId('twofa-status'));
      }
      assert.equal(await isOn(status), false, 'two-factor starts off');

      // Enabling ends the session (spec §4): back to /login, nothing stored.
      await page.locator(byTestId('twofa-method-email')).click();
      await page.waitForURL(isPath('/login'));
      await page.locator(byTestId('login-form')).waitFor();
      const stored = await storedSession(page);
      assert.equal(stored?.auth ?? null, null, 'enabling two-factor clears the stored auth');
      assert.equal(stored?.user ?? null, null, 'enabling two-factor clears the stored user');

      // The password alone now leads to the code page, and a code is mailed.
      const before = await newestMailTo(TWO_FACTOR_EMAIL);
      await fillLogin(page, TWO_FACTOR_EMAIL);
      await page.waitForURL(isPath('/authentication'));
      await page.locator(byTestId('twofa-form')).waitFor();
      assert.equal((await storedSession(page))?.auth ?? null, null, 'no session before the code');
      const code = codeFrom(await waitForNewMail(TWO_FACTOR_EMAIL, before));

      // A wrong code is refused inline.
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      await enterCode(page, wrong);
      await page.locator(byTestId('twofa-error')).waitFor();
      assert.equal(new URL(page.url()).pathname, '/authentication');
      assert.equal(await page.locator(byTestId('error-notification')).count(), 0, 'no second (notification) error');

      // Wrong codes up to the last try: the code is replaced by a new mailed one (the owner's sign-in goes
      // on: nothing an outsider types stops it), the field is emptied and the warning says so.
      const beforeNew = await newestMailTo(TWO_FACTOR_EMAIL);
      const replaced = page.locator(byTestId('twofa-info'));
      for (let tries = 2; tries <= 5; tries++) {
        await enterCode(page, wrong);
        // The answer is in when the button is enabled again.
        await page.waitForFunction((sel) => document.querySelector(sel)?.disabled === false, byTestId('twofa-submit'));
      }
      await replaced.waitFor();
      assert.match(await replaced.innerText(), /För många felaktiga koder/);
      assert.equal(await page.locator(byTestId('twofa-code')).inputValue(), '', 'the dead code is cleared');
      const newCode = codeFrom(await waitForNewMail(TWO_FACTOR_EMAIL, beforeNew));

      // The new mailed code signs in.
      await enterCode(page, newCode);
      await page.waitForURL(isPath(PREFIX));
      await page.locator(byTestId('dashboard-page')).waitFor();
      assert.ok((await storedSession(page))?.auth?.access_token, 'signed in after the code');

      // Turn it off again: the session continues.
      status = await openTwoFactorPage(page, PREFIX);
      assert.equal(await isOn(status), true, 'two-factor is on');
      await turnOffWithPassword(page);
      await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-enabled') === 'false', byTestId('twofa-status'));
      assert.equal(new URL(page.url()).pathname, `${PREFIX}update-2fa/`, 'disabling stays on the page');
      assert.ok((await storedSession(page))?.auth?.access_token, 'disabling keeps the session');

      await logout(page);
      assert.equal((await storedSession(page))?.auth ?? null, null, 'logout clears the stored auth');
    });
  });

  test('forgot password: mailed link → new password → login; the link works once; change the password back', { timeout: 120_000 }, async () => {
    await withPage('account-recovery', async (page) => {
      await page.goto(url('/login'));
      await page.locator(byTestId('login-form')).waitFor();
      await page.locator(byTestId('login-forgot')).click();
      await page.waitForURL(isPath('/recover-password'));
      await page.locator(byTestId('recover-form')).waitFor();

      const before = await newestMailTo(RECOVERY_EMAIL);
      await page.locator(byTestId('recover-email')).fill(RECOVERY_EMAIL);
      await page.locator(byTestId('recover-submit')).click();
      await page.locator(byTestId('recover-sent')).waitFor();

      const mail = await waitForNewMail(RECOVERY_EMAIL, before);
      const m = /(http\S+\/recovery\/account\?token=\S+)/.exec(mail.body ?? '');
      assert.ok(m, `the mail holds a recovery link: ${mail.body}`);
      const link = onBaseUrl(m[1]);

      await page.goto(link);
      await page.locator(byTestId('confirm-form')).waitFor();
      await page.locator(byTestId('confirm-password')).fill(NEW_PASSWORD);
      await page.locator(byTestId('confirm-password2')).fill(NEW_PASSWORD);
      await page.locator(byTestId('confirm-submit')).click();
      await page.locator(byTestId('confirm-done')).click();
      await page.waitForURL(isPath('/login'));

      await page.locator(byTestId('login-form')).waitFor();
      await fillLogin(page, RECOVERY_EMAIL, NEW_PASSWORD);
      await page.waitForURL(isPath(PREFIX));
      await page.locator(byTestId('dashboard-page')).waitFor();

      // The same link again — in a signed-out browser, since a signed-in user
      // on a public route is sent to their dashboard (spec §2) — is refused.
      await withPage('account-recovery-reuse', async (other) => {
        await other.goto(link);
        await other.locator(byTestId('confirm-form')).waitFor();
        await other.locator(byTestId('confirm-password')).fill('Another-pass-2026-abc');
        await other.locator(byTestId('confirm-password2')).fill('Another-pass-2026-abc');
        await other.locator(byTestId('confirm-submit')).click();
        await other.locator(byTestId('invalid-url')).waitFor();
        assert.equal(await other.locator(byTestId('confirm-form')).count(), 0);
      });

      // Back to the demo password through Change Password (so reruns work).
      await openUserMenuItem(page, 'user-menu-change-password');
      await page.waitForURL(isPath(`${PREFIX}change-password/`));
      await page.locator(byTestId('change-password-form')).waitFor();
      await page.locator(byTestId('change-password-old')).fill(NEW_PASSWORD);
      await page.locator(byTestId('change-password-new')).fill(PASSWORD);
      await page.locator(byTestId('change-password-confirm')).fill(PASSWORD);
      await page.locator(byTestId('change-password-submit')).click();
      await page.locator(byTestId('change-password-success')).waitFor();
      assert.ok((await storedSession(page))?.auth?.access_token, 'the session continues after changing the password');

      // The session continues with the new tokens.
      await page.goto(url(PREFIX));
      await page.locator(byTestId('dashboard-page')).waitFor();
      await logout(page);
    });
  });
});
