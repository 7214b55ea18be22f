// End-to-end tests of customer registration and account states (spec §4):
// a company registers → admin approves it in /admin/customers/pending/ → the
// activation link from the local outbox → password confirmed → login lands on
// /user/ → logout; and an admin deactivating a customer ends that customer's
// open session on its next call.
//
// Each run registers new, unique customers, so the suite can be rerun against
// the same gateway.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFetch as api, PASSWORD, byTestId, fillLogin, login, logout, onBaseUrl, url, waitForNewMail, withPage } from './helpers.mjs';

const ADMIN = 'admin@example.com';
const CUSTOMER_PASSWORD = 'Kund-lösen-2026-ok';
const ACTIVATED_PASSWORD = 'Aktiv-lösen-2026-ok';

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
/** A random, well-formed company registration number (XXXXXX-XXXX). */
const regNumber = () => {
  const d = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
  return `${d(6)}-${d(4)}`;
};
const isPath = (path) => (u) => u.pathname === path;

/** The activation link of the newest activation mail to `email`, on BASE_URL. */
async function activationLink(email) {
  const mail = await waitForNewMail(email, null);
  const m = /(https?:\/\/\S+\/approve\/customer\?token=\S+)/.exec(mail.body);
  assert.ok(m, `an activation link in the mail: ${mail.body}`);
  return onBaseUrl(m[1]);
}


async function adminToken() {
  const { status, body } = await api('POST', '/token/', { email: ADMIN, password: PASSWORD });
  assert.equal(status, 200, JSON.stringify(body));
  return body.access_token;
}

async function adminLogin(page) {
  await login(page, ADMIN);
  await page.waitForURL(isPath('/admin/'));
}

describe('registration', () => {
  test('company registers → admin approves → activation link → set password → login → /user/ → logout', { timeout: 180_000 }, async () => {
    const email = `firma-${unique()}@example.com`;
    const regno = regNumber();

    await withPage('registration-register', async (page) => {
      await page.goto(url('/registration'));
      await page.locator(byTestId('registration-form')).waitFor();
      await page.locator(byTestId('reg-company-name')).fill('E2E Konsult AB');
      await page.locator(byTestId('reg-regno')).fill(regno);
      // A native select (phones get their own picker): the seeded sector by its Swedish name.
      await page.locator(`${byTestId('reg-sector')} option`, { hasText: /^Finans$/ }).waitFor({ state: 'attached' });
      await page.locator(byTestId('reg-sector')).selectOption({ label: 'Finans' });
      await page.locator(byTestId('reg-first-name')).fill('Erik');
      await page.locator(byTestId('reg-last-name')).fill('Företagare');
      await page.locator(byTestId('reg-email')).fill(email);
      await page.locator(byTestId('reg-phone')).fill('070-123 45 67');
      await page.locator(byTestId('reg-password')).fill(CUSTOMER_PASSWORD);
      await page.locator(byTestId('reg-confirm-password')).fill(CUSTOMER_PASSWORD);
      await page.locator(byTestId('reg-profile-address1')).fill('Storgatan 1');
      await page.locator(byTestId('reg-profile-city')).fill('Stockholm');
      // A post code with a space is refused on the client.
      await page.locator(byTestId('reg-profile-postcode')).fill('111 2');
      // Click the checkbox's label (what a person clicks), then check it took.
      for (const id of ['reg-terms', 'reg-privacy']) {
        await page.locator(`label:has(${byTestId(id)})`).click();
        await page.waitForFunction((sel) => document.querySelector(sel)?.checked === true, byTestId(id));
      }
      await page.locator(byTestId('reg-submit')).click();
      await page.getByText('Postnumret ska vara exakt 5 siffror, utan mellanslag.').first().waitFor();
      await page.locator(byTestId('reg-profile-postcode')).fill('11122');
      await page.locator(byTestId('reg-submit')).click();
      await page.locator(byTestId('registration-success')).waitFor();

      // Pending: the right password is refused with the pending message.
      await login(page, email, CUSTOMER_PASSWORD);
      await page.getByText('Kontot väntar på godkännande').first().waitFor();
      assert.equal(new URL(page.url()).pathname, '/login');
    });

    await withPage('registration-approve', async (page) => {
      await adminLogin(page);
      // The pending badge on the admin menu counts this customer.
      await page.locator(byTestId('menu-badge-customers')).waitFor();
      await page.goto(url('/admin/customers/pending/'));
      await page.locator(byTestId('customers-pending')).waitFor();
      await page.locator(byTestId('customers-search')).locator('input').fill(email);
      await page.locator(byTestId('customers-search')).locator('input').press('Enter');
      await page.locator(byTestId(`approve-${email}`)).click();
      // Approved: the row now offers to resend the activation mail.
      await page.locator(byTestId(`resend-${email}`)).waitFor();
    });

    await withPage('registration-activate', async (page) => {
      await page.goto(await activationLink(email));
      await page.locator(byTestId('confirm-form')).waitFor();
      await page.locator(byTestId('confirm-password')).fill(ACTIVATED_PASSWORD);
      await page.locator(byTestId('confirm-password2')).fill(ACTIVATED_PASSWORD);
      await page.locator(byTestId('confirm-submit')).click();
      await page.locator(byTestId('confirm-done')).click();
      await page.waitForURL(isPath('/login'));

      // The used link now shows the invalid URL screen.
      await page.goto(await activationLink(email));
      await page.locator(byTestId('invalid-url')).waitFor();

      await login(page, email, ACTIVATED_PASSWORD);
      await page.waitForURL(isPath('/user/'));
      await page.locator(byTestId('dashboard-page')).waitFor();
      await logout(page);
    });
  });

  test('admin deactivates a customer: the open session is logged out on its next call', { timeout: 180_000 }, async () => {
    // A customer registered, approved and activated through the API.
    const email = `privat-${unique()}@example.com`;
    const sectorless = {
      customer_type: 'Individual',
      first_name: 'Ida',
      last_name: 'Inaktiv',
      email,
      password: CUSTOMER_PASSWORD,
      confirm_password: CUSTOMER_PASSWORD,
      phone: '0701234567',
      profile: { address_1: 'Storgatan 2', address_2: '', city: 'Uppsala', post_code: '75310', country: 1 },
      same_invoice_address: true,
      terms_accepted: true,
      privacy_accepted: true,
    };
    const reg = await api('POST', '/registration/', sectorless);
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const admin = await adminToken();
    // The answer names no account (it is the same whether the address exists): admin finds it among the pending.
    const pending = await api('GET', `/customer/list/?status=pending&search=${encodeURIComponent(email)}`, undefined, admin);
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    const uid = pending.body.results.find((c) => c.email === email)?.uid;
    assert.ok(uid, JSON.stringify(pending.body));
    assert.equal((await api('POST', `/customer/approve/${uid}/`, {}, admin)).status, 200);
    const token = new URL(await activationLink(email)).searchParams.get('token');
    const act = await api('POST', '/customer/activation/', { token, password: CUSTOMER_PASSWORD, confirm_password: CUSTOMER_PASSWORD });
    assert.equal(act.status, 200, JSON.stringify(act.body));

    await withPage('registration-deactivate-customer', async (customer) => {
      await login(customer, email, CUSTOMER_PASSWORD);
      await customer.waitForURL(isPath('/user/'));
      await customer.locator(byTestId('dashboard-page')).waitFor();

      await withPage('registration-deactivate-admin', async (page) => {
        await adminLogin(page);
        await page.goto(url('/admin/customers/'));
        await page.locator(byTestId('customers-active')).waitFor();
        await page.locator(byTestId('customers-search')).locator('input').fill(email);
        await page.locator(byTestId('customers-search')).locator('input').press('Enter');
        await page.locator(byTestId(`deactivate-${email}`)).click();
        await page.locator(byTestId(`deactivate-confirm-${email}`)).click();
        await page.locator(byTestId(`deactivate-${email}`)).waitFor({ state: 'detached' });
        await page.goto(url('/admin/customers/inactive/'));
        await page.locator(byTestId(`activate-${email}`)).waitFor();
      });

      // The customer's next call (the profile refresh on reload) is refused: logged out.
      await customer.reload();
      await customer.waitForURL(isPath('/login'));
      const stored = await customer.evaluate(() => JSON.parse(localStorage.getItem('root') ?? 'null'));
      assert.equal(stored?.auth ?? null, null, 'the session was cleared');
      // And signing in again is refused as inactive.
      await customer.locator(byTestId('login-form')).waitFor();
      await fillLogin(customer, email, CUSTOMER_PASSWORD);
      await customer.getByText('Kontot är inaktivt').first().waitFor();
    });
  });
});
