// End-to-end test of the authenticator-app second factor (TOTP): enrol from
// the two-factor settings page by computing the app's code from the shown
// secret (a tiny RFC 6238 below, node:crypto), keep the recovery codes, log
// out, log in with an app code, log out, log in with a recovery code, then
// remove the app with the password. Needs the seeded account totp@example.com
// (customer, password Demo-2026-pass!).
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/
//
// While the app is enrolled its secret is kept in test-results/, so a rerun
// after an interrupted run can still sign in and remove it first.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASSWORD, RESULTS_DIR, byTestId, enterCode, fillLogin, login, logout, openTwoFactorPage, storedSession, withPage } from './helpers.mjs';

const EMAIL = 'totp@example.com';
const PREFIX = '/user/';
const STEP = 30;
const SECRET_FILE = join(RESULTS_DIR, 'totp-e2e-secret.txt');

const isPath = (path) => (u) => u.pathname === path;

/** RFC 4648 base32 (no padding) to bytes. */
function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out = [];
  for (const ch of text.replace(/[\s=]/g, '').toUpperCase()) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP, SHA-1, 6 digits, 30-second steps: the code of `step`. */
function codeOfStep(key, step) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const h = createHmac('sha1', key).update(counter).digest();
  const offset = h[h.length - 1] & 0xf;
  const bin = ((h[offset] & 0x7f) << 24) | (h[offset + 1] << 16) | (h[offset + 2] << 8) | h[offset + 3];
  return String(bin % 1_000_000).padStart(6, '0');
}

const stepNow = () => Math.floor(Date.now() / 1000 / STEP);

/** Wait until we are at least `margin` seconds away from the end of a step. */
async function awayFromStepEnd(margin = 4) {
  const into = (Date.now() / 1000) % STEP;
  if (into > STEP - margin) await new Promise((r) => setTimeout(r, (STEP - into + 0.5) * 1000));
}

/** Steps already spent in this run: the server accepts each step once. */
let lastUsedStep = 0;

/** An app code the server has not seen: the current step's, or the next one (within its ±1 window). */
function freshCode(secret) {
  const step = Math.max(stepNow(), lastUsedStep + 1);
  assert.ok(step <= stepNow() + 1, 'a fresh step is within the server window');
  lastUsedStep = step;
  return codeOfStep(base32Decode(secret), step);
}

/** Remove the app with the password (from the settings page). */
async function removeApp(page) {
  await page.locator(byTestId('twofa-method-off')).click();
  await page.locator(byTestId('totp-disable')).waitFor();
  await page.locator(byTestId('totp-disable-password')).fill(PASSWORD);
  await page.locator(byTestId('totp-disable-submit')).click();
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-enabled') === 'false', byTestId('twofa-status'));
  rmSync(SECRET_FILE, { force: true });
}

describe('authenticator app (TOTP)', () => {
  test('the test’s own RFC 6238 matches the RFC vectors', () => {
    const seed = Buffer.from('12345678901234567890');
    assert.equal(codeOfStep(seed, Math.floor(59 / STEP)), '287082');
    assert.equal(codeOfStep(seed, Math.floor(1111111109 / STEP)), '081804');
    assert.equal(codeOfStep(seed, Math.floor(2000000000 / STEP)), '279037');
    assert.deepEqual(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'), seed);
  });

  test('enrol with a QR code → log in with an app code → log in with a recovery code → remove', { timeout: 180_000 }, async () => {
    await withPage('totp', async (page) => {
      // Sign in; an interrupted earlier run may have left the app enrolled.
      await login(page, EMAIL);
      await page.waitForURL((u) => u.pathname === PREFIX || u.pathname === '/authentication');
      if (new URL(page.url()).pathname === '/authentication') {
        assert.ok(existsSync(SECRET_FILE), 'totp@example.com has an authenticator from an earlier run, and its secret is gone');
        await page.locator(byTestId('twofa-form')).waitFor();
        await enterCode(page, freshCode(readFileSync(SECRET_FILE, 'utf8').trim()));
        await page.waitForURL(isPath(PREFIX));
        await openTwoFactorPage(page, PREFIX);
        await removeApp(page);
      }
      await page.locator(byTestId('dashboard-page')).waitFor();

      // Enrol: choose the authenticator app; the QR code and the secret show.
      let status = await openTwoFactorPage(page, PREFIX);
      assert.equal(await status.getAttribute('data-enabled'), 'false', 'two-factor starts off');
      await page.locator(byTestId('twofa-method-totp')).click();
      await page.locator(byTestId('totp-setup')).waitFor();
      assert.equal(await page.locator(`${byTestId('totp-qr')} svg, ${byTestId('totp-qr')} canvas`).count() > 0, true, 'a QR code is drawn');
      const secret = await page.locator(byTestId('totp-secret')).getAttribute('data-secret');
      assert.match(secret ?? '', /^[A-Z2-7]{32}$/, 'a 20-byte base32 secret');
      assert.equal((await page.locator(byTestId('totp-secret')).textContent()).replace(/\s/g, ''), secret, 'the secret is shown for manual entry');
      mkdirSync(RESULTS_DIR, { recursive: true });
      writeFileSync(SECRET_FILE, secret);

      // A wrong code is refused on the form; the app's code confirms.
      await awayFromStepEnd();
      const right = codeOfStep(base32Decode(secret), stepNow());
      const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
      await page.locator(byTestId('totp-confirm-code')).fill(wrong);
      await page.locator(byTestId('totp-confirm-submit')).click();
      await page.locator(`${byTestId('totp-setup')} .ant-form-item-explain-error`).waitFor();
      assert.equal(await page.locator(byTestId('totp-recovery')).count(), 0, 'a wrong code does not enrol');
      await page.locator(byTestId('totp-confirm-code')).fill(freshCode(secret));
      await page.locator(byTestId('totp-confirm-submit')).click();

      // The recovery codes, once, with a warning.
      const codes = page.locator(`${byTestId('totp-recovery-codes')} li`);
      await codes.first().waitFor();
      const recovery = (await codes.allTextContents()).map((c) => c.trim());
      assert.equal(recovery.length, 10, 'ten recovery codes');
      for (const c of recovery) assert.match(c, /^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
      await page.locator(byTestId('totp-recovery-download')).waitFor();
      await page.locator(byTestId('totp-recovery-done')).click();
      assert.equal(await page.locator(byTestId('totp-recovery-left')).getAttribute('data-count'), '10');
      assert.equal(await page.locator(byTestId('twofa-status')).getAttribute('data-method'), 'totp');
      assert.ok((await storedSession(page))?.auth?.access_token, 'this session continues after enrolling');
      await logout(page);

      // Log in with an app code: no mail, no resend, the app prompt.
      await fillLogin(page, EMAIL);
      await page.waitForURL(isPath('/authentication'));
      await page.locator(byTestId('twofa-form')).waitFor();
      assert.equal(await page.locator(byTestId('twofa-resend')).count(), 0, 'no resend for an app');
      assert.match(await page.locator(byTestId('twofa-prompt')).textContent(), /autentiseringsapp/);
      await enterCode(page, freshCode(secret));
      await page.waitForURL(isPath(PREFIX));
      await page.locator(byTestId('dashboard-page')).waitFor();
      await logout(page);

      // Log in with a recovery code.
      await fillLogin(page, EMAIL);
      await page.waitForURL(isPath('/authentication'));
      await page.locator(byTestId('twofa-use-recovery')).click();
      await enterCode(page, recovery[0]);
      await page.waitForURL(isPath(PREFIX));
      await page.locator(byTestId('dashboard-page')).waitFor();

      // Nine left; remove the app with the password so reruns start clean.
      status = await openTwoFactorPage(page, PREFIX);
      assert.equal(await page.locator(byTestId('totp-recovery-left')).getAttribute('data-count'), '9');
      await removeApp(page);
      assert.ok((await storedSession(page))?.auth?.access_token, 'removing the app keeps the session');
      await logout(page);
      await fillLogin(page, EMAIL);
      await page.waitForURL(isPath(PREFIX));
      await logout(page);
    });
  });
});
