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
import { apiCall, byTestId, clickToOpen, RESULTS_DIR, url } from './helpers.mjs';
import { caseWorld, hourRow } from './caseWorld.mjs';

const consumed = async (page, uid) => (await hourRow(page, uid)).consumed_hour;

describe('case hours', { timeout: 180_000 }, () => {
  test('lawyer edits an entry on the update page; consumed hours follow; additional hours consume nothing', async () => {
    const w = await caseWorld();
    const { customer, admin, lawyer, cp, ap, lp, uid, caseType: type } = w;
    try {
      // Set-up: a case in progress with the lawyer, one entry of 1,5 h.
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
      // The hours are the page's last section: the ones above it may still be loading (clickToOpen).
      await clickToOpen(lp, byTestId(`hour-edit-${entry.body.id}`), (u) => u.pathname === `/lawyer/cases/case-hour/update/${entry.body.id}` && u.searchParams.get('case') === caseUid);
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
      await w.close();
    }
  });
});
