// End-to-end test of a case's life (spec §2, §4): a customer with a
// consultancy-hours service creates a case with a PDF attached (uploaded to
// S3 through a presigned URL and checked by the server), admin downloads the
// PDF under its name, verifies and publishes the case,
// a lawyer accepts it and logs 1,5 hours (comma decimal), the customer sees
// the consumed hours change, and the lawyer closes it after confirmation.
// Uses case-customer@example.com (seeded with SEED_E2E=1), admin@example.com
// and lawyer@example.com; each run gives the customer a fresh hour row.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, byTestId, url } from './helpers.mjs';
import { caseWorld, hourRow } from './caseWorld.mjs';

const PDF_NAME = 'Hyresavtal.pdf';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

describe('cases', { timeout: 180_000 }, () => {
  test('customer creates, admin publishes, lawyer accepts, logs 1,5 h and closes', async () => {
    const w = await caseWorld();
    const { customer, admin, lawyer, cp, ap, lp, uid } = w;
    try {
      const before = (await hourRow(ap, uid)).consumed_hour;

      // The customer creates a case.
      const subject = `E2E lease ${Date.now()}`;
      await cp.goto(url('/user/cases/create/'));
      await cp.locator(byTestId('case-form')).waitFor();
      await cp.locator(byTestId('case-subject')).fill(subject);
      await cp.locator(byTestId('case-description')).fill('The landlord raised the rent.');
      await cp.locator(byTestId('case-hours')).fill('2,5');
      await cp.locator(`${byTestId('case-type')}`).click();
      await cp.locator('.ant-select-item-option', { hasText: 'E2E Tenancy' }).first().click();
      await cp.locator(byTestId('case-counterpart')).fill('Hyresvärden AB');
      // ...with a PDF: kept on the form, uploaded once the case exists.
      await cp.locator(`${byTestId('case-form-documents')} input[type="file"]`).setInputFiles({ name: PDF_NAME, mimeType: 'application/pdf', buffer: PDF });
      await cp.locator(byTestId('case-form-documents'), { hasText: PDF_NAME }).waitFor();
      const created = cp.waitForResponse((r) => r.url().endsWith('/api/case/create/by/customer/') && r.request().method() === 'POST');
      const confirmed = cp.waitForResponse((r) => r.url().endsWith('/api/case/file/confirm/'));
      await cp.locator(byTestId('case-submit')).click();
      const res = await created;
      const kase = await res.json();
      assert.equal(res.status(), 201, JSON.stringify(kase));
      const confirm = await confirmed;
      const file = await confirm.json();
      assert.equal(confirm.status(), 201, JSON.stringify(file));
      assert.equal(file.name, PDF_NAME);
      assert.equal(file.size, PDF.length);
      await cp.waitForURL((u) => u.pathname === `/user/cases/details/${kase.uid}`);
      assert.equal(await cp.locator(byTestId('case-status')).first().innerText(), 'Väntande');
      // The details page lists it.
      await cp.locator(byTestId(`case-document-download-${PDF_NAME}`)).waitFor();
      assert.equal(await cp.locator(byTestId('case-documents-errors')).count(), 0);

      // Admin downloads it: the presigned GET answers the bytes as an attachment under its name.
      await ap.goto(url(`/admin/cases/details/${kase.uid}`));
      const downloading = ap.waitForEvent('download');
      await ap.locator(byTestId(`case-document-download-${PDF_NAME}`)).click();
      const download = await downloading;
      assert.equal(download.suggestedFilename(), PDF_NAME);
      const got = await ap.request.get(download.url());
      assert.equal(got.status(), 200);
      assert.match(got.headers()['content-disposition'] ?? '', new RegExp(`^attachment;.*${PDF_NAME.replace('.', '\\.')}`));
      assert.deepEqual(Buffer.from(await got.body()), PDF);

      // Admin verifies and publishes it.
      const published = ap.waitForResponse((r) => r.url().includes(`/api/case/status/${kase.uid}/`));
      await ap.locator(byTestId('case-action-publish')).click();
      assert.equal((await published).status(), 200);
      await ap.locator(byTestId('case-status'), { hasText: 'Tillgänglig' }).first().waitFor();

      // The lawyer finds it among the available cases and accepts it.
      await lp.goto(url('/lawyer/cases/available/'));
      await lp.locator(byTestId(`case-link-${subject}`)).click();
      await lp.waitForURL((u) => u.pathname === `/lawyer/cases/details/${kase.uid}`);
      const accepted = lp.waitForResponse((r) => r.url().includes(`/api/case/status/${kase.uid}/`));
      await lp.locator(byTestId('case-action-accept')).click();
      assert.equal((await accepted).status(), 200);

      // ...and logs 1,5 hours.
      await lp.locator(byTestId('hour-input')).fill('1,5');
      const logged = lp.waitForResponse((r) => r.url().endsWith('/api/case/hour/create/'));
      await lp.locator(byTestId('hour-submit')).click();
      assert.equal((await logged).status(), 201);
      await lp.locator(byTestId('case-hours-total'), { hasText: '1,5' }).waitFor();

      // The customer sees the consumed hours change.
      await cp.goto(url(`/user/cases/details/${kase.uid}`));
      await cp.locator(byTestId('case-hours-total'), { hasText: '1,5' }).waitFor();
      const after = (await hourRow(cp, uid)).consumed_hour;
      assert.equal(Math.round((after - before) * 100), 150);
      const row = await hourRow(cp, uid);
      await cp.goto(url('/user/'));
      await cp.locator(byTestId(`sub-consumed-${row.id}`), { hasText: /^1[,.]5(h\/| ?\/)/ }).waitFor();

      // The lawyer closes the case after confirming.
      await lp.locator(byTestId('case-action-complete')).click();
      const closed = lp.waitForResponse((r) => r.url().includes(`/api/case/status/${kase.uid}/`));
      await lp.locator(byTestId('case-action-confirm')).click();
      assert.equal((await closed).status(), 200);
      await lp.locator(byTestId('case-status'), { hasText: 'Stängd' }).first().waitFor();
    } catch (err) {
      mkdirSync(RESULTS_DIR, { recursive: true });
      for (const [name, p] of [['customer', customer.page], ['admin', admin.page], ['lawyer', lawyer.page]]) {
        await p.screenshot({ path: join(RESULTS_DIR, `cases-${name}-failure.png`), fullPage: true }).catch(() => undefined);
      }
      throw err;
    } finally {
      await w.close();
    }
  });
});
