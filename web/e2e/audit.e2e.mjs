// End-to-end test of the audit trail: the admin opens two customers'
// records, finds the audit page under Settings, narrows it to one customer
// (the address keeps the filter), exports it as CSV (the server's file, in
// the interface's language); the customer opens "who opened our data" from
// the user menu and sees the admin's look at its record, and nothing of the
// other customer's. Uses admin@example.com, customer@example.com and
// case-customer@example.com (SEED_E2E=1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { apiCall, byTestId, chooseOption, clickSideMenuItem, newPage, openUserMenuItem, signIn, storedSession } from './helpers.mjs';

const ADMIN = 'admin@example.com';
const CUSTOMER = 'customer@example.com';
const OTHER = 'case-customer@example.com';
/** The demo customer's company, as the customer filter names it. */
const COMPANY = 'Kund Demo AB';

async function uidOf(email, prefix) {
  const { context, page } = await newPage();
  try {
    await signIn(page, email, prefix);
    return (await storedSession(page)).user.uid;
  } finally {
    await context.close();
  }
}

describe('audit trail', { timeout: 240_000 }, () => {
  test('admin filters by customer and exports CSV; the customer sees only its own part', async () => {
    const mine = await uidOf(CUSTOMER, '/user/');
    const other = await uidOf(OTHER, '/user/');
    const { context, page } = await newPage();
    try {
      await signIn(page, ADMIN, '/admin/');
      // Two customers' records viewed: each view is an event of its customer.
      assert.equal((await apiCall(page, 'GET', `/customer/details/${mine}/`)).status, 200);
      assert.equal((await apiCall(page, 'GET', `/customer/details/${other}/`)).status, 200);

      await clickSideMenuItem(page, 'menu-item-settings', 'menu-item-settings-audit');
      await page.waitForURL((u) => u.pathname === '/admin/settings/audit/');
      await page.locator(byTestId('audit-row-customer_viewed')).first().waitFor();

      // The customer filter: typed, picked by name; the list is read again for that customer only. The pick waits for
      // the search's answer, as a person waits for the list to settle: clicked while the answer replaced the list
      // (a busy machine), the click landed on the list being replaced and chose nothing.
      await page.locator(`${byTestId('audit-customer-select')} input`).click();
      const searched = page.waitForResponse((r) => r.url().includes('/api/customer/dropdown/list/') && r.url().includes('search=Kund'));
      await page.locator(`${byTestId('audit-customer-select')} input`).fill('Kund Demo');
      await searched;
      const filtered = page.waitForResponse((r) => r.url().includes('/api/audit/?') && r.url().includes(`customer=${mine}`));
      await chooseOption(page, byTestId('audit-customer-select'), COMPANY);
      const body = await (await filtered).json();
      assert.ok(body.results.length > 0);
      assert.ok(body.results.every((e) => e.customer_uid === mine), JSON.stringify(body.results));
      await page.waitForURL((u) => u.searchParams.get('customer') === mine);
      await page.locator(byTestId('audit-row-customer_viewed')).first().waitFor();
      const shown = await page.locator(`${byTestId('audit-table')} .ant-table-tbody`).innerText();
      assert.match(shown, /Kund visad/);
      assert.match(shown, /Administratör/);

      // The export: the server's CSV for the same filter, headings in Swedish.
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator(byTestId('audit-export')).click()]);
      assert.match(download.suggestedFilename(), /^audit-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      assert.ok(csv.startsWith('\ufeffTid (UTC),Händelse,Användare'), csv.slice(0, 80));
      assert.match(csv, /Kund visad/);
      assert.ok(!csv.includes(other), 'the other customer is not in the filtered export');
    } finally {
      await context.close();
    }

    const c = await newPage();
    try {
      await signIn(c.page, CUSTOMER, '/user/');
      const own = c.page.waitForResponse((r) => r.url().includes('/api/audit/mine/'));
      await openUserMenuItem(c.page, 'user-menu-own-audit');
      await c.page.waitForURL((u) => u.pathname === '/user/access-log/');
      const body = await (await own).json();
      assert.ok(body.results.some((e) => e.action === 'customer_viewed' && e.actor_role === 'admin'), JSON.stringify(body.results));
      assert.ok(body.results.every((e) => e.customer_uid === mine), 'only its own data');
      await c.page.locator(byTestId('audit-row-customer_viewed')).first().waitFor();
      assert.match(await c.page.locator(byTestId('audit-table')).innerText(), /Kund visad/);
      // The whole trail stays the admin's.
      assert.equal((await apiCall(c.page, 'GET', '/audit/')).status, 403);
    } finally {
      await c.context.close();
    }
  });
});
