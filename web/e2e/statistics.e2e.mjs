// End-to-end test of the dashboards and statistics: a lawyer logs
// hours and, after a reload, the admin's dashboard (hours this month) and the
// finance chart and table show them. The case is set up through the API;
// the figures are read from the pages. Uses case-customer@example.com
// (SEED_E2E=1), admin@example.com and lawyer@example.com.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiCall, byTestId, chooseLanguage, RESULTS_DIR, url } from './helpers.mjs';
import { caseWorld } from './caseWorld.mjs';

/** "1 234,5" → 1234.5 (sv-SE figures as shown). */
const number = (text) => Number(text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.'));
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });

async function dashboardBillable(page) {
  await page.goto(url('/admin/'));
  const cell = page.locator(`${byTestId('dash-hours-month-billable')} .plain-figure-value`);
  await cell.waitFor();
  return number(await cell.innerText());
}

async function financeBillable(page) {
  const answer = page.waitForResponse((r) => r.url().includes('/api/statistic/finance/'));
  await page.goto(url('/admin/statistics/finance/'));
  const body = await (await answer).json();
  const col = body.table.columns.indexOf('hours.billable');
  await page.locator(byTestId('series-chart')).waitFor();
  await page.locator(`${byTestId('series-chart')} canvas`).first().waitFor();
  // The figures as the page shows them beneath the chart (sv-SE hours).
  const rows = page.locator(`${byTestId('statistics-table')} .ant-table-tbody tr.ant-table-row`);
  await rows.first().waitFor();
  const shown = await rows.evaluateAll((trs, i) => trs.map((tr) => tr.querySelectorAll('td')[i]?.innerText ?? ''), col);
  const fromPage = Math.round(shown.reduce((s, t) => s + number(t), 0) * 100);
  assert.equal(fromPage, body.table.rows.reduce((s, r) => s + r[col], 0));
  return fromPage;
}

/** The header texts of the statistics table as the page shows them. */
async function tableHeader(page) {
  const ths = page.locator(`${byTestId('statistics-table')} thead th`);
  return (await ths.allInnerTexts()).map((t) => t.trim());
}

/** The header cells of the CSV the export button downloads (CSV quoting undone). */
async function csvHeader(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(byTestId('export-csv')).click()]);
  const text = readFileSync(await download.path(), 'utf8');
  assert.ok(text.startsWith('\ufeff'), 'a byte-order mark for Excel');
  const line = text.slice(1).split(/\r?\n/)[0];
  return [...line.matchAll(/"((?:[^"]|"")*)"|([^,]+)/g)].map((m) => (m[1] ?? m[2]).replace(/""/g, '"'));
}

describe('dashboards and statistics', { timeout: 180_000 }, () => {
  test('a lawyer logs hours; the admin dashboard and the finance chart follow after a reload', async () => {
    const w = await caseWorld();
    const { admin, lawyer, ap, lp, uid, caseType: type } = w;
    try {
      const created = await apiCall(ap, 'POST', '/case/create/', { customer: uid, subject: `E2E statistics ${Date.now()}`, description: 'Stats', type, estimated_hours: '5' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const caseUid = created.body.uid;
      assert.equal((await apiCall(ap, 'POST', `/case/status/${caseUid}/`, { action: 'publish' })).status, 200);
      assert.equal((await apiCall(lp, 'POST', `/case/status/${caseUid}/`, { action: 'accept' })).status, 200);

      const dashBefore = await dashboardBillable(ap);
      const financeBefore = await financeBillable(ap);

      const entry = await apiCall(lp, 'POST', '/case/hour/create/', { case_uid: caseUid, hour: '1,75', non_billable_hour: '0,5', date: today() });
      assert.equal(entry.status, 201, JSON.stringify(entry.body));

      await ap.reload();
      assert.equal(Math.round((await dashboardBillable(ap)) * 100 - dashBefore * 100), 175);
      assert.equal((await financeBillable(ap)) - financeBefore, 175);
      const table = ap.locator(byTestId('statistics-table'));
      await table.waitFor();
      mkdirSync(RESULTS_DIR, { recursive: true });
      await ap.screenshot({ path: join(RESULTS_DIR, 'statistics-finance.png'), fullPage: true });

      // The CSV export's headers are the table's, in the reader's language.
      assert.deepEqual(await csvHeader(ap), await tableHeader(ap));
      assert.ok((await csvHeader(ap)).includes('Debiterbara timmar'));
      await chooseLanguage(ap, 'en');
      await ap.locator(byTestId('statistics-table')).getByRole('columnheader', { name: 'Billable hours' }).waitFor();
      const en = await csvHeader(ap);
      assert.deepEqual(en, await tableHeader(ap));
      assert.ok(en.includes('Billable hours'), en.join('|'));
      await chooseLanguage(ap, 'sv');

      // The activity page lists the new case beneath its chart.
      await ap.goto(url('/admin/statistics/activity/'));
      await ap.locator(byTestId('activity-cases')).getByText(created.body.subject).waitFor();

      // The lawyer's own dashboard shows the same hours.
      await lp.goto(url('/lawyer/'));
      await lp.locator(byTestId('dash-hours-month-billable')).waitFor();
    } finally {
      await w.close();
      void admin;
      void lawyer;
    }
  });
});
