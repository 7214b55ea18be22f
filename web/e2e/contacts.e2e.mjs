// End-to-end test of customer contacts (spec §3, §5) and the profile image
// (spec §2): the demo customer creates a contact with some permissions, the
// contact chooses a password through the mailed link, signs in, does not see
// Users, is sent back from /customer_contact/users/, is refused by the API,
// and uploads a profile image that shows in the header avatar.
//
// Each run creates a new contact (unique address), so the suite can be rerun
// against the same gateway; the demo accounts are not changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, login, storedSession, url, newestMailTo, setPasswordFromMail, withPage, logout } from './helpers.mjs';

const CUSTOMER_EMAIL = 'customer@example.com';
const CONTACT_PASSWORD = 'Contact-pass-2026!';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const isPath = (path) => (u) => u.pathname === path;

describe('customer contacts', () => {
  test('customer creates a contact; the contact sets a password, lacks Users, is refused by the API, uploads an avatar', { timeout: 180_000 }, async () => {
    const email = `e2e-contact-${Date.now()}@example.com`;
    await withPage('contacts', async (page) => {
      // --- the customer creates the contact
      await login(page, CUSTOMER_EMAIL);
      await page.waitForURL(isPath('/user/'));
      await page.locator(byTestId('menu-item-users')).click();
      await page.waitForURL(isPath('/user/users/'));
      await page.locator(byTestId('contacts-create')).click();
      await page.waitForURL(isPath('/user/users/create/'));
      await page.locator(byTestId('contact-first-name')).fill('Elin');
      await page.locator(byTestId('contact-last-name')).fill('Endtoend');
      await page.locator(byTestId('contact-email')).fill(email);
      await page.locator(byTestId('contact-phone')).fill('+46 70 123 45 67');
      await page.locator(byTestId('contact-permission-add_case')).check();
      await page.locator(byTestId('contact-permission-view_bisnode')).check();
      const before = await newestMailTo(email);
      await page.locator(byTestId('contact-submit')).click();
      await page.waitForURL(isPath('/user/users/'));
      await page.locator(byTestId('contacts-created')).waitFor();
      await page.locator(byTestId(`contact-row-${email}`)).waitFor();
      await logout(page);

      // --- the set-password link from the outbox
      await setPasswordFromMail(page, email, before, CONTACT_PASSWORD);

      // --- the contact signs in: no Users entry, the route sends it home
      await login(page, email, CONTACT_PASSWORD);
      await page.waitForURL(isPath('/customer_contact/'));
      await page.locator(byTestId('menu-item-dashboard')).waitFor();
      await page.locator(byTestId('menu-item-services')).waitFor();
      assert.equal(await page.locator(byTestId('menu-item-users')).count(), 0, 'no Users entry without view_contact');
      const stored = await storedSession(page);
      assert.deepEqual([...stored.permission].sort(), ['add_case', 'view_bisnode']);

      await page.goto(url('/customer_contact/users/'));
      await page.waitForURL(isPath('/customer_contact/'));
      await page.locator(byTestId('dashboard-page')).waitFor();
      assert.equal(await page.locator(byTestId('contacts-page')).count(), 0);

      // --- the API refuses the contact's own token
      const token = (await storedSession(page)).auth.access_token;
      const res = await fetch(url('/api/user/list/'), { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).message, 'forbidden');

      // --- profile image through the presigned URL, shown in the header
      const avatar = page.locator(byTestId('header-avatar'));
      assert.equal(await avatar.getAttribute('data-has-image'), 'false');
      assert.equal((await avatar.textContent()).trim(), 'E');
      await page.goto(url('/customer_contact/profile/'));
      await page.locator(byTestId('profile-page')).waitFor();
      await page.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
      await page.locator(byTestId('profile-success')).waitFor();
      await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-has-image') === 'true', byTestId('header-avatar'));
      const img = avatar.locator('img');
      const src = await img.getAttribute('src');
      assert.match(src, /profile-images\//);
      // the browser really loaded the image from the presigned URL
      await page.waitForFunction((sel) => {
        const el = document.querySelector(`${sel} img`);
        return el && el.complete && el.naturalWidth === 1;
      }, byTestId('header-avatar'));
    });
  });
});
