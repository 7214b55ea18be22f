// End-to-end test of the add-on services (spec §2, §4, §5): the
// demo customer (seeded with the Verified plan) registers the company's
// signing token, creates an envelope with a PDF and two signers, sends it and
// sees it completed after the gateway's provider stand-in signs it (one
// signer per status poll); the second demo customer, without the plan, sees
// the promotion screen. Rerunnable on one gateway (unique envelope names; a
// token from an earlier run is kept).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, byTestId, newPage, signIn, url } from './helpers.mjs';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

describe('add-on services', { timeout: 180_000 }, () => {
  test('a customer with the Verified plan registers the token, sends an envelope to two signers and sees it completed', async () => {
    const { context, page } = await newPage();
    try {
      await signIn(page, 'customer@example.com', '/user/');
      await page.goto(url('/user/services/contract-sign/'));
      await page.locator(`${byTestId('verified-token-screen')}, ${byTestId('envelope-list')}`).first().waitFor();
      if (await page.locator(byTestId('verified-token-screen')).count()) {
        await page.locator(byTestId('token-company')).fill('kund-demo-ab');
        await page.locator(byTestId('token-email')).fill(`signing-${Date.now()}@example.com`);
        await page.locator(byTestId('token-password')).fill('Signing-pass-1');
        await page.locator(byTestId('token-register-submit')).click();
      }
      await page.locator(byTestId('envelope-list')).waitFor();
      const check = await apiCall(page, 'GET', '/verified/check/');
      assert.deepEqual(check.body, { registered: true, valid: true });

      await page.locator(byTestId('envelope-create')).click();
      await page.waitForURL((u) => u.pathname === '/user/services/contract-sign/create/');
      const name = `E2E avtal ${Date.now()}`;
      await page.locator(byTestId('envelope-name')).fill(name);
      await page.locator(byTestId('envelope-file')).setInputFiles({ name: 'avtal.pdf', mimeType: 'application/pdf', buffer: PDF });
      await page.locator(byTestId('envelope-document')).filter({ hasText: 'avtal.pdf' }).waitFor();
      await page.locator(byTestId('recipient-name-0')).fill('Signe Ett');
      await page.locator(byTestId('recipient-email-0')).fill('signe.ett@example.com');
      await page.locator(byTestId('recipient-add')).click();
      await page.locator(byTestId('recipient-name-1')).fill('Sigge Två');
      await page.locator(byTestId('recipient-email-1')).fill('sigge.tva@example.com');
      const created = page.waitForResponse((r) => r.url().endsWith('/api/services/contract-sign/') && r.request().method() === 'POST');
      await page.locator(byTestId('envelope-save')).click();
      const envelope = await (await created).json();
      assert.equal(envelope.state, 'draft', JSON.stringify(envelope));
      assert.equal(envelope.recipients.length, 2);

      await page.waitForURL((u) => u.pathname === '/user/services/contract-sign/');
      const row = page.locator('tr', { hasText: name });
      await row.locator('[data-state="draft"]').waitFor();
      await row.locator(byTestId('envelope-send')).click();
      // The list polls while the envelope is out; the stand-in signs one signer per poll.
      await row.locator('[data-state="completed"]').waitFor({ timeout: 60_000 });
      assert.equal(await row.locator(byTestId('envelope-progress')).textContent(), '2/2');
      await row.locator(byTestId('envelope-download')).waitFor();
      const link = await apiCall(page, 'GET', `/services/contract-sign/${envelope.uid}/download/`);
      assert.equal(link.status, 200, JSON.stringify(link.body));
      assert.ok(link.body.url);

      // The use is booked on the Verified row (the subscriptions table's consumed column).
      const session = await page.evaluate(() => JSON.parse(localStorage.getItem('root')));
      const rows = await apiCall(page, 'GET', `/customer/${session.user.uid}/`);
      const verified = rows.body.purchased_services.find((r) => r.service.id === 2 && !r.expired);
      assert.ok(verified && verified.consumed_limit >= 1, JSON.stringify(verified));
    } finally {
      await context.close();
    }
  });

  test('a customer without the plan sees the promotion screen', async () => {
    const { context, page } = await newPage();
    try {
      await signIn(page, 'customer2@example.com', '/user/');
      for (const path of ['/user/services/contract-sign/', '/user/services/credit-check/']) {
        await page.goto(url(path));
        await page.locator(byTestId('service-promotion')).waitFor();
        assert.equal(await page.locator(byTestId('page-placeholder')).count(), 0);
      }
      const denied = await apiCall(page, 'GET', '/services/contract-sign/');
      assert.equal(denied.status, 403);
      assert.equal(denied.body.message, 'service_not_purchased');
    } finally {
      await context.close();
    }
  });
});
