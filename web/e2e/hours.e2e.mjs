// End-to-end test of the hour screens (spec §2 cases/case-hour/update/{id},
// §3 additional hours): a lawyer edits an hour entry through the update page
// and the customer's consumed hours follow exactly; then reports additional
// hours for a month, which consume nothing. The case and the first entry are
// set up through the API. Uses case-customer@example.com (seeded with
// SEED_E2E=1), admin@example.com and lawyer@example.com.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { apiCall, byTestId, newPage, RESULTS_DIR, signIn, storedSession, url } from './helpers.mjs';

const CUSTOMER = 'case-customer@example.com';
const ADMIN = 'admin@example.com';
const LAWYER = 'lawyer@example.com';

async function consumed(page, uid) {
  const res = await apiCall(page, 'GET', `/customer/${uid}/`);
  assert.equal(res.status, 200);
  return res.body.purchased_services.find((r) => r.service.id === 1 && r.active && !r.expired).consumed_hour;
}

describe('case hours', { timeout: 180_000 }, () => {
  test('lawyer edits an entry on the update page; consumed hours follow; additional hours consume nothing', async () => {
    const customer = await newPage();
    const admin = await newPage();
    const lawyer = await newPage();
    try {
      const cp = customer.page;
      const ap = admin.page;
      const lp = lawyer.page;
      await signIn(cp, CUSTOMER, '/user/');
      const uid = (await storedSession(cp)).user.uid;
      await signIn(ap, ADMIN, '/admin/');
      await signIn(lp, LAWYER, '/lawyer/');

      // Set-up: a fresh hour row, a case in progress with the lawyer, one entry of 1,5 h.
      let types = (await apiCall(ap, 'GET', '/typeofcase/list/')).body;
      if (!types.some((t) => t.name === 'E2E Tenancy')) {
        assert.equal((await apiCall(ap, 'POST', '/typeofcase/', { name: 'E2E Tenancy', description: '' })).status, 201);
        types = (await apiCall(ap, 'GET', '/typeofcase/list/')).body;
      }
      const type = types.find((t) => t.name === 'E2E Tenancy').id;
      for (const row of (await apiCall(ap, 'GET', `/customer/${uid}/`)).body.purchased_services) {
        await apiCall(ap, 'DELETE', `/customer/purchase-services/delete/${row.id}/`);
      }
      const bought = await apiCall(ap, 'POST', '/customer/purchase-services/', { customer_uid: uid, custom: true, name: 'E2E hours', hours: '10', price: '1000', duration_days: 30 });
      assert.equal(bought.status, 201, JSON.stringify(bought.body));
      const created = await apiCall(ap, 'POST', '/case/create/', { customer: uid, subject: `E2E hours ${Date.now()}`, description: 'Hours', type, estimated_hours: '5' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const caseUid = created.body.uid;
      assert.equal((await apiCall(ap, 'POST', `/case/status/${caseUid}/`, { action: 'publish' })).status, 200);
      assert.equal((await apiCall(lp, 'POST', `/case/status/${caseUid}/`, { action: 'accept' })).status, 200);
      const before = await consumed(ap, uid);
      const entry = await apiCall(lp, 'POST', '/case/hour/create/', { case_uid: caseUid, hour: '1,5', date: '2026-03-02' });
      assert.equal(entry.status, 201, JSON.stringify(entry.body));
      assert.equal(Math.round(((await consumed(ap, uid)) - before) * 100), 150);

      // The lawyer opens the entry from the details page and changes 1,5 to 2,25.
      await lp.goto(url(`/lawyer/cases/details/${caseUid}`));
      await lp.locator(byTestId(`hour-edit-${entry.body.id}`)).click();
      await lp.waitForURL((u) => u.pathname === `/lawyer/cases/case-hour/update/${entry.body.id}` && u.searchParams.get('case') === caseUid);
      const hourInput = lp.locator(byTestId('hour-update-hour'));
      await hourInput.waitFor();
      assert.equal(await hourInput.inputValue(), '1,5');
      await hourInput.fill('2,25');
      const saved = lp.waitForResponse((r) => r.url().endsWith(`/api/case/hour/edit/${entry.body.id}/`));
      await lp.locator(byTestId('hour-update-submit')).click();
      assert.equal((await saved).status(), 200);
      await lp.waitForURL((u) => u.pathname === `/lawyer/cases/details/${caseUid}`);
      await lp.locator(byTestId('case-hours-total'), { hasText: '2,25' }).waitFor();

      // The customer's consumed hours followed exactly.
      await cp.goto(url(`/user/cases/details/${caseUid}`));
      await cp.locator(byTestId('case-hours-total'), { hasText: '2,25' }).waitFor();
      assert.equal(Math.round(((await consumed(cp, uid)) - before) * 100), 225);

      // Additional hours for a month: listed, never consumed.
      const month = lp.locator(`${byTestId('additional-form')} input`).first();
      await month.click();
      await month.fill('2026-03');
      await month.press('Enter');
      await lp.locator(byTestId('additional-total')).fill('3,5');
      const added = lp.waitForResponse((r) => r.url().endsWith('/api/case/additional_hour/create/'));
      await lp.locator(byTestId('additional-submit')).click();
      const addRes = await added;
      assert.equal(addRes.status(), 201, await addRes.text());
      await lp.locator(byTestId('additional-edit-2026-03')).waitFor();
      await lp.locator(byTestId('additional-hours-total'), { hasText: '3,5' }).waitFor();
      assert.equal(Math.round(((await consumed(cp, uid)) - before) * 100), 225);
      // ...and recorded in their own history.
      await lp.locator(byTestId('case-history-additional-link')).click();
      await lp.locator(byTestId('additional-history-table'), { hasText: '2026-03 3.5 h' }).waitFor();
    } catch (err) {
      mkdirSync(RESULTS_DIR, { recursive: true });
      for (const [name, p] of [['customer', customer.page], ['admin', admin.page], ['lawyer', lawyer.page]]) {
        await p.screenshot({ path: join(RESULTS_DIR, `hours-${name}-failure.png`), fullPage: true }).catch(() => undefined);
      }
      throw err;
    } finally {
      await customer.context.close();
      await admin.context.close();
      await lawyer.context.close();
    }
  });
});
