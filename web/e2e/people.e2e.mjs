// End-to-end test of people administration and the conflict search:
// admin creates an external lawyer and a company customer, then finds the
// customer through the header conflict box with a misspelt name and opens
// its details modal from the hit.
//
// Names and numbers are unique per run, so the suite can be rerun against the
// same gateway.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, chooseOption, login, storedSession, submitAndWaitForURL, url, withPage } from './helpers.mjs';

const isPath = (path) => (u) => u.pathname === path;
const digits = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

describe('people administration and conflict search', () => {
  test('admin creates an external lawyer and a company customer, then finds the customer misspelt and opens its details', { timeout: 180_000 }, async () => {
    const stamp = Date.now();
    const lawyerEmail = `e2e-lawyer-${stamp}@example.com`;
    const customerEmail = `e2e-company-${stamp}@example.com`;
    const regno = `${digits(6)}-${digits(4)}`;
    const sector = `E2E sector ${stamp}`;
    await withPage('people', async (page) => {
      await login(page, 'admin@example.com');
      await page.waitForURL(isPath('/admin/'));

      // A knowledge sector for the lawyer form (the list may be empty).
      const token = (await storedSession(page)).auth.access_token;
      const res = await fetch(url('/api/knowledge/sector/'), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: sector }),
      });
      assert.equal(res.status, 201, await res.text());

      // --- external lawyer
      await page.goto(url('/admin/lawyer/create/'));
      await page.locator(byTestId('staff-form')).waitFor();
      await page.locator(byTestId('staff-first-name')).fill('Eva');
      await page.locator(byTestId('staff-last-name')).fill('Extern');
      await page.locator(byTestId('staff-email')).fill(lawyerEmail);
      await page.locator('input[type="radio"][value="external"]').check();
      await page.locator(byTestId('staff-company-name')).fill('Extern Byrå AB');
      await page.locator(`${byTestId('staff-hourly-rate')} input, input${byTestId('staff-hourly-rate')}`).first().fill('1500');
      await chooseOption(page, byTestId('staff-sectors'), sector);
      await submitAndWaitForURL(page, byTestId('staff-submit'), isPath('/admin/lawyers/external/'));
      await page.locator(byTestId('staff-row-name'), { hasText: 'Eva Extern' }).first().waitFor();

      // --- company customer
      await page.goto(url('/admin/customers/'));
      await page.locator(byTestId('customer-create-link')).click();
      await page.waitForURL(isPath('/admin/customer/create/'));
      await page.locator(byTestId('customer-form')).waitFor();
      await page.locator(byTestId('customer-first-name')).fill('Sven');
      await page.locator(byTestId('customer-last-name')).fill('Söderberg');
      await page.locator(byTestId('customer-email')).fill(customerEmail);
      await page.locator(byTestId('customer-phone')).fill('070-123 45 67');
      await page.locator(byTestId('customer-company-name')).fill('Söderberg & Partners AB');
      await page.locator(byTestId('customer-regno')).fill(regno);
      await chooseOption(page, byTestId('customer-sector'), /^(Finans|Financial)$/);
      await page.locator(byTestId('profile-address-1')).fill('Storgatan 1');
      await page.locator(byTestId('profile-post-code')).fill('11122');
      await page.locator(byTestId('profile-city')).fill('Stockholm');
      await submitAndWaitForURL(page, byTestId('customer-submit'), isPath('/admin/customers/'));
      await page.locator(byTestId(`customer-name-${customerEmail}`)).waitFor();

      // --- the header conflict box with a misspelt name
      const box = page.locator(`input${byTestId('conflict-search')}, ${byTestId('conflict-search')} input`).first();
      await box.fill('Soderberg och Partners');
      await box.press('Enter');
      await page.waitForURL((u) => u.pathname === '/admin/interest/' && u.searchParams.get('search') === 'Soderberg och Partners');
      const hit = page.locator(byTestId('conflict-hit'), { hasText: regno }).first();
      await hit.waitFor();
      assert.match(await hit.locator(byTestId('conflict-hit-name')).textContent(), /Söderberg & Partners AB/);

      // --- its details modal
      await hit.locator(byTestId('conflict-hit-customer')).click();
      await page.locator(byTestId('customer-details')).waitFor();
      assert.equal(await page.locator(byTestId('customer-details-regno')).textContent(), regno);
      assert.equal(await page.locator(byTestId('customer-details-name')).textContent(), 'Sven Söderberg');
      assert.equal(await page.locator(byTestId('customer-details-invoice')).textContent(), 'Samma som besöksadress');
      assert.equal(await page.locator(byTestId('customer-details-visiting')).textContent(), 'Storgatan 1, 11122, Stockholm, Sverige');
    });
  });
});
