// End-to-end test of debt collection (spec §2 Inkasso, §3
// Inkasso account): the demo customer (seeded with Inkasso) reaches the
// screen from the dashboard's Services menu, applies for the Inkasso
// account, sees 'come back after 30 minutes', asks again and finds it
// approved by the gateway's provider stand-in, registers a claim with an
// invoice PDF and follows its status. Rerunnable on one gateway (an account
// approved in an earlier run is kept; unique invoice numbers).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, byTestId, newPage, signIn } from './helpers.mjs';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

describe('debt collection (Inkasso)', { timeout: 180_000 }, () => {
  test('the demo customer applies, is approved, registers a claim with a PDF and sees its status', async () => {
    const { context, page } = await newPage();
    try {
      await signIn(page, 'customer@example.com', '/user/');
      // From the dashboard through the menu, as a user gets there.
      await page.locator('.ant-menu').getByText(/^(Tjänster|Services)$/).first().click();
      await page.locator('.ant-menu').getByText(/Inkasso/).first().click();
      await page.waitForURL((u) => u.pathname === '/user/services/inkasso/');
      await page.locator(byTestId('inkasso-page')).waitFor();

      if (!(await page.locator(byTestId('claim-form')).count())) {
        await page.locator(byTestId('inkasso-organization_number')).fill('556000-0001');
        await page.locator(byTestId('inkasso-contact_name')).fill('Kim Kontakt');
        await page.locator(byTestId('inkasso-home_page')).fill('https://kund.example.com');
        await page.locator(byTestId('inkasso-bank_name')).fill('Banken');
        await page.locator(byTestId('inkasso-bank_account')).fill('1234-5678901');
        await page.locator(byTestId('inkasso-bank_giro')).fill('5050-1055');
        await page.locator(byTestId('inkasso-iban')).fill('SE45 5000 0000 0583 9825 7466');
        await page.locator(byTestId('inkasso-bic')).fill('ESSESESS');
        await page.locator(byTestId('inkasso-approved_ip')).fill('192.0.2.10');
        const applied = page.waitForResponse((r) => r.url().endsWith('/api/inkasso/prospect/') && r.request().method() === 'PUT');
        await page.locator(byTestId('inkasso-submit')).click();
        assert.equal((await applied).status(), 200);
        // Undecided: the screen says to come back, and can ask again.
        await page.locator(byTestId('inkasso-refresh')).waitFor();
        assert.match(await page.locator(byTestId('inkasso-state')).innerText(), /30 min/);
        await page.locator(byTestId('inkasso-refresh')).click();
      }
      await page.locator(byTestId('claim-form')).waitFor();
      assert.match(await page.locator(byTestId('inkasso-state')).innerText(), /^(Godkänt|Approved)$/);
      const hashes = await apiCall(page, 'GET', '/inkasso-hashs/');
      assert.equal(hashes.status, 200);
      assert.equal(hashes.body.length, 1);
      assert.equal(await page.locator(byTestId('inkasso-hash')).first().innerText(), hashes.body[0].hash);

      const invoiceNumber = `E2E-${Date.now()}`;
      const today = new Date().toISOString().slice(0, 10);
      await page.locator(byTestId('claim-debtor_name')).fill('Gäldenär AB');
      await page.locator(byTestId('claim-debtor_number')).fill('556000-0001');
      await page.locator(byTestId('claim-debtor_address')).fill('Storgatan 1, 111 22 Stockholm');
      await page.locator(byTestId('claim-debtor_email')).fill('ekonomi@example.com');
      await page.locator(byTestId('claim-amount')).fill('12 500,50');
      await page.locator(byTestId('claim-invoice_number')).fill(invoiceNumber);
      await page.locator(byTestId('claim-due_date')).fill(today);
      await page.locator(byTestId('claim-file')).setInputFiles({ name: 'faktura.pdf', mimeType: 'application/pdf', buffer: PDF });
      await page.locator(byTestId('claim-invoice-name')).filter({ hasText: 'faktura.pdf' }).waitFor();
      const created = page.waitForResponse((r) => r.url().endsWith('/api/services/inkasso/claims/') && r.request().method() === 'POST');
      await page.locator(byTestId('claim-submit')).click();
      const response = await created;
      const claim = await response.json();
      assert.equal(response.status(), 201, JSON.stringify(claim));
      assert.equal(claim.amount, 1_250_050);
      assert.equal(claim.status, 'registered');

      // The list follows the provider: each reading moves the stand-in's claim a step on.
      const row = page.locator('tr', { hasText: invoiceNumber });
      await row.waitFor();
      assert.match(await row.innerText(), /12\s500,50\sSEK/);
      await page.locator(byTestId('claim-refresh')).click();
      await row.locator(byTestId('claim-status')).filter({ hasText: /Påminnelse skickad|Reminder sent/ }).waitFor();

      // The use is booked on the Incasso row (the subscriptions table's consumed column).
      const me = await apiCall(page, 'GET', '/customer/verify-services/?service=Incasso');
      assert.equal(me.status, 200);
      assert.ok(me.body[0].consumed_limit >= 1, JSON.stringify(me.body));
    } finally {
      await context.close();
    }
  });
});
