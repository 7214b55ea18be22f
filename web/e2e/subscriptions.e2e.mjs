// End-to-end test of packages and subscriptions (spec §2, §4, §7): admin
// creates a public package, a customer buys it on the dashboard, admin
// changes its expiry and hours and deletes it on the customer's manage page,
// and the customer sees the table follow. Uses subscriber@example.com (seeded
// with SEED_E2E=1) and admin@example.com; starts by deleting whatever rows an
// earlier run left, so it can be rerun against the same gateway.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, byTestId, newPage, signIn, storedSession, url } from './helpers.mjs';

async function signInToDashboard(page, email, prefix) {
  await signIn(page, email, prefix);
  await page.locator(byTestId('dashboard-page')).waitFor();
}

const CUSTOMER = 'subscriber@example.com';
const ADMIN = 'admin@example.com';

/** The DatePicker's text input inside the element carrying `testId`, or the input itself. */
function pickerInput(page, testId) {
  return page.locator(`${byTestId(testId)} input, input${byTestId(testId)}`).first();
}

describe('packages and subscriptions', { timeout: 120_000 }, () => {
  test('admin creates a public package, the customer buys it, admin changes and deletes it', async () => {
    const customer = await newPage();
    const admin = await newPage();
    try {
      const cp = customer.page;
      const ap = admin.page;
      await signInToDashboard(cp, CUSTOMER, '/user/');
      const uid = (await storedSession(cp)).user.uid;
      assert.ok(uid, 'customer uid in the stored session');
      await signInToDashboard(ap, ADMIN, '/admin/');

      // Clean up rows of an earlier run.
      const before = await apiCall(ap, 'GET', `/customer/${uid}/`);
      assert.equal(before.status, 200);
      for (const row of before.body.purchased_services) {
        assert.equal((await apiCall(ap, 'DELETE', `/customer/purchase-services/delete/${row.id}/`)).status, 200);
      }

      // Admin creates a public package.
      const name = `E2E Guld ${Date.now()}`;
      await ap.goto(url('/admin/settings/packages/create/'));
      await ap.locator(byTestId('package-form')).waitFor();
      await ap.locator(byTestId('package-name')).fill(name);
      await ap.locator(byTestId('package-hours')).fill('2,5');
      await ap.locator(byTestId('package-price')).fill('1500');
      // "Public" is off until switched on.
      assert.equal(await ap.locator(byTestId('package-public')).getAttribute('aria-checked'), 'false');
      await ap.locator(byTestId('package-public')).click();
      const created = ap.waitForResponse((r) => r.url().endsWith('/api/packages/') && r.request().method() === 'POST');
      await ap.locator(byTestId('package-submit')).click();
      const pkg = await (await created).json();
      assert.equal(pkg.name, name);
      assert.equal(pkg.hours, 2.5);
      assert.equal(pkg.public, true);
      await ap.locator(byTestId(`package-row-${pkg.id}`)).waitFor();

      // The customer buys it from the dashboard.
      await cp.goto(url('/user/'));
      await cp.locator(byTestId('subscriptions-empty')).waitFor();
      const item = cp.locator(byTestId(`buy-package-item-${pkg.id}`));
      await item.waitFor();
      assert.match(await item.innerText(), /1\s500,00\s*SEK/); // money one way: sv-SE with the currency code
      await cp.locator(byTestId(`buy-package-${pkg.id}`)).click();
      const bought = cp.waitForResponse((r) => r.url().endsWith('/api/subscription/packages/') && r.status() === 201);
      await cp.locator(byTestId('buy-confirm-yes')).click();
      const row = await (await bought).json();
      await cp.locator(byTestId(`sub-row-${row.id}`)).waitFor();
      assert.equal(await cp.locator(byTestId(`sub-limit-${row.id}`)).innerText(), '2,5 tim');
      assert.equal(await cp.locator(byTestId(`sub-consumed-${row.id}`)).innerText(), '0/2,5 tim');
      assert.equal(await cp.locator(byTestId(`sub-status-${row.id}`)).innerText(), 'Aktiv');
      assert.equal(await cp.locator(byTestId(`sub-status-${row.id}`)).getAttribute('data-color'), 'green');
      // The customer (user_type 3) gets no Options menu.
      assert.equal(await cp.locator(byTestId(`sub-options-${row.id}`)).count(), 0);

      // Admin changes expiry and hours on the customer's manage page.
      await ap.goto(url(`/admin/customer/manage/package/${uid}/`));
      await ap.locator(byTestId(`sub-row-${row.id}`)).waitFor();
      await ap.locator(byTestId(`sub-options-${row.id}`)).click();
      await ap.locator(byTestId(`sub-action-change-${row.id}`)).click();
      await ap.locator(byTestId('change-service-form')).waitFor();
      // The dialog opens with the row's hours; 0 first, so the Enter that
      // confirms the date (and submits the form) is refused by the hours rule.
      await ap.locator(byTestId('change-hours')).fill('0');
      const expire = pickerInput(ap, 'change-expire');
      await expire.click();
      await expire.press('Control+a');
      await expire.fill('2031-05-17 10:00:00');
      await expire.press('Enter');
      await ap.locator(byTestId('change-submit')).click();
      await ap.getByText('Timmar måste vara minst 0,01').waitFor();
      await ap.locator(byTestId('change-hours')).fill('3,5');
      const patched = ap.waitForResponse((r) => r.url().includes(`/api/puchasedservices/${row.id}/`));
      await ap.locator(byTestId('change-submit')).click();
      const patch = await patched;
      assert.equal(patch.status(), 200);
      assert.equal(JSON.parse(patch.request().postData()).expire_on, '2031-05-17 10:00:00');
      assert.equal(JSON.parse(patch.request().postData()).hour, '3.5'); // typed "3,5", sent as a plain decimal
      await ap.getByText('Tjänsten har uppdaterats!').waitFor();
      await ap.locator(byTestId(`sub-expiry-${row.id}`)).filter({ hasText: '2031-05-17 10:00' }).waitFor();

      // The customer sees the change.
      await cp.reload();
      await cp.locator(byTestId(`sub-expiry-${row.id}`)).filter({ hasText: '2031-05-17 10:00' }).waitFor();
      assert.equal(await cp.locator(byTestId(`sub-limit-${row.id}`)).innerText(), '3,5 tim');

      // Admin deletes the row after the confirmation.
      await ap.locator(byTestId(`sub-options-${row.id}`)).click();
      await ap.locator(byTestId(`sub-action-delete-${row.id}`)).click();
      assert.equal(await ap.locator(byTestId('sub-confirm-text')).innerText(), 'Är du säker på att du vill ta bort den här tjänsten?');
      const deleted = ap.waitForResponse((r) => r.url().includes(`/delete/${row.id}/`));
      await ap.locator(byTestId('sub-confirm-yes')).click();
      assert.equal((await deleted).status(), 200);
      await ap.getByText('Tjänsten har tagits bort').waitFor();
      await ap.locator(byTestId(`sub-row-${row.id}`)).waitFor({ state: 'detached' });

      // ... and the customer's table is empty again.
      await cp.reload();
      await cp.locator(byTestId('subscriptions-empty')).waitFor();
      assert.equal(await cp.locator(byTestId(`sub-row-${row.id}`)).count(), 0);
    } finally {
      await customer.context.close();
      await admin.context.close();
    }
  });
});
