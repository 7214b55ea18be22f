// The right to be forgotten, by clicking: a customer asks on My data, admin
// approves under Customers → Data requests, and the customer's account is
// gone (its password no longer signs in). A customer of its own, registered,
// approved and activated through the API: the shard's other tests use the
// demo customer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFetch as api, PASSWORD, byTestId, clickSideMenuItem, fillLogin, login, newestMailTo, onBaseUrl, openUserMenuItem, url, waitForNewMail, withPage } from './helpers.mjs';

const ADMIN = 'admin@example.com';
const CUSTOMER_PASSWORD = 'Glöm-mig-2026-ok';
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const isPath = (path) => (u) => u.pathname === path;


/** A private customer registered, approved and activated: its e-mail and uid. */
async function activatedCustomer(admin) {
  const email = `glom-${unique()}@example.com`;
  const reg = await api('POST', '/registration/', {
    customer_type: 'Individual',
    first_name: 'Greta',
    last_name: 'Glömsk',
    email,
    password: CUSTOMER_PASSWORD,
    confirm_password: CUSTOMER_PASSWORD,
    phone: '0701234567',
    profile: { address_1: 'Glömgatan 1', address_2: '', city: 'Uppsala', post_code: '75310', country: 1 },
    same_invoice_address: true,
    terms_accepted: true,
    privacy_accepted: true,
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const pending = await api('GET', `/customer/list/?status=pending&search=${encodeURIComponent(email)}`, undefined, admin);
  const uid = pending.body?.results?.find((c) => c.email === email)?.uid;
  assert.ok(uid, JSON.stringify(pending.body));
  assert.equal((await api('POST', `/customer/approve/${uid}/`, {}, admin)).status, 200);
  const mail = await waitForNewMail(email, null);
  const link = /(https?:\/\/\S+\/approve\/customer\?token=\S+)/.exec(mail.body);
  assert.ok(link, mail.body);
  const token = new URL(onBaseUrl(link[1])).searchParams.get('token');
  const act = await api('POST', '/customer/activation/', { token, password: CUSTOMER_PASSWORD, confirm_password: CUSTOMER_PASSWORD });
  assert.equal(act.status, 200, JSON.stringify(act.body));
  return { email, uid };
}

describe('the right to be forgotten', { timeout: 300_000 }, () => {
  test('the customer asks on My data; admin approves in Data requests; the account no longer signs in', async () => {
    const signedIn = await api('POST', '/token/', { email: ADMIN, password: PASSWORD });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const admin = signedIn.body.access_token;
    const { email, uid } = await activatedCustomer(admin);

    await withPage('erasure-customer', async (page) => {
      await login(page, email, CUSTOMER_PASSWORD);
      await page.waitForURL(isPath('/user/'));
      await openUserMenuItem(page, 'user-menu-my-data');
      await page.waitForURL(isPath('/user/my-data/'));
      await page.locator(byTestId('erasure-panel')).waitFor();
      const asked = page.waitForResponse((r) => r.url().includes(`/api/customer/erasure/${uid}/`) && r.request().method() === 'POST');
      await page.locator(byTestId('erasure-request')).click();
      await page.locator(byTestId('erasure-confirm')).click();
      assert.equal((await asked).status(), 201);
      // Shown as asked, and not asked twice.
      await page.locator(byTestId('erasure-pending')).waitFor();
      assert.equal(await page.locator(byTestId('erasure-request')).isDisabled(), true, 'one open request at a time');
      await page.screenshot({ path: 'test-results/erasure-asked.png', fullPage: true });
    });

    const beforeDecision = await newestMailTo(email);
    const listed = await api('GET', '/data-requests/?status=pending', undefined, admin);
    const row = listed.body?.results?.find((r) => r.kind === 'erasure' && r.customer_uid === uid);
    assert.ok(row, JSON.stringify(listed.body));

    await withPage('erasure-admin', async (page) => {
      await login(page, ADMIN);
      await page.waitForURL(isPath('/admin/'));
      await clickSideMenuItem(page, 'menu-item-customers', 'menu-item-customers-data-requests');
      await page.waitForURL(isPath('/admin/customers/data-requests/'));
      await page.locator(byTestId(`request-approve-${row.id}`)).click();
      const decided = page.waitForResponse((r) => r.url().includes(`/api/customer/erasure/${uid}/${row.id}/decide/`));
      await page.locator(byTestId('request-approve-confirm')).click();
      assert.equal((await decided).status(), 200);
      await page.locator(byTestId(`request-state-${row.id}`)).filter({ hasNotText: /Väntande|Pending/ }).waitFor();
      await page.screenshot({ path: 'test-results/erasure-approved.png', fullPage: true });
    });

    // Told by mail what was kept, and signed out for good: the password no longer signs in.
    const told = await waitForNewMail(email, beforeDecision);
    assert.ok(told.body.length > 0, 'the erasure is told by mail');
    const again = await api('POST', '/token/', { email, password: CUSTOMER_PASSWORD });
    assert.ok([400, 401].includes(again.status), `the erased account does not sign in: ${again.status} ${JSON.stringify(again.body)}`);
    await withPage('erasure-signed-out', async (page) => {
      await page.goto(url('/login'));
      await fillLogin(page, email, CUSTOMER_PASSWORD);
      await page.locator(byTestId('login-error')).waitFor();
      assert.ok(!page.url().includes('/user/'), 'not signed in');
    });
  });
});
