// Signing in with BankID against the providers' stand-in (BankID's RP API v6
// copy in the local gateway, scripted per order through
// /local/providers/bankid/_next): link BankID on the profile page (after a
// password sign-in), log out, sign in with BankID from the login page (QR
// code and BankID's messages shown while it is pending), and a person no
// account is linked to is refused. Needs the seeded account
// bankid@example.com (customer, password Demo-2026-pass!).
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/bankid.e2e.mjs
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, logout, signIn, storedSession, url, withPage } from './helpers.mjs';

const EMAIL = 'bankid@example.com';
const NUMBER = '198512249874';
const UNKNOWN = '197707071234';

/** The path the stand-in's next BankID order takes. */
async function nextOrder(path) {
  const res = await fetch(url('/local/providers/bankid/_next'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(path),
  });
  assert.equal(res.status, 204);
}

describe('BankID', () => {
  test('link on the profile, then sign in with BankID; an unknown person is refused', async () => {
    await withPage('bankid', async (page) => {
      await signIn(page, EMAIL, '/user/');
      await page.goto(url('/user/profile/'));
      // `data-linked` is there once the link's state has loaded.
      const state = page.locator(`${byTestId('profile-bankid-state')}[data-linked]`);
      await state.waitFor();
      // A run stopped after linking left the link: remove it first.
      if ((await state.getAttribute('data-linked')) === 'true') {
        await page.locator(byTestId('profile-bankid-unlink')).click();
        await page.locator(`${byTestId('profile-bankid-state')}[data-linked="false"]`).waitFor();
      }
      await page.locator(`${byTestId('profile-bankid-link')}:not([disabled])`).waitFor();
      await nextOrder({ personalNumber: NUMBER, hints: ['outstandingTransaction', 'userSign'] });
      await page.locator(byTestId('profile-bankid-link')).click();
      await page.locator(byTestId('bankid-qr')).waitFor();
      await page.locator(`${byTestId('profile-bankid-state')}[data-linked="true"]`).waitFor();
      assert.match(await page.locator(byTestId('profile-bankid-state')).innerText(), /19851224-\*\*\*\*/);

      await logout(page);
      await nextOrder({ personalNumber: NUMBER, hints: ['outstandingTransaction', 'started'] });
      await page.locator(byTestId('login-bankid')).click();
      const qr = page.locator(byTestId('bankid-qr'));
      await qr.waitFor();
      assert.match((await qr.getAttribute('data-qr')) ?? '', /^bankid\.[0-9a-f-]+\.\d+\.[0-9a-f]{64}$/);
      await page.locator(byTestId('bankid-message')).waitFor();
      await page.waitForURL((u) => u.pathname === '/user/');
      const session = await storedSession(page);
      assert.ok(session?.auth?.access_token, 'signed in');
      assert.equal(session?.user?.email, EMAIL);

      await logout(page);
      await nextOrder({ personalNumber: UNKNOWN, hints: [] });
      await page.locator(byTestId('login-bankid')).click();
      await page.locator(byTestId('bankid-error')).waitFor();
      assert.match(await page.locator(byTestId('bankid-error')).innerText(), /Inget konto är kopplat till det här BankID/);
      assert.equal(page.url(), url('/login'));
    });
  });
});
