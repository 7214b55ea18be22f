// End-to-end test of debt collection (spec §2 Inkasso, §3 Inkasso account)
// as a manual hand-over to the collection agency: the demo customer
// (seeded with Inkasso) reaches the screen from the dashboard's Services
// menu and applies; the application is mailed to the hand-over address and
// the screen says it is with the office ('come back after 30 minutes'). The
// admin finds it under Customers → Inkasso hand-overs and approves it with
// the agency's customer number; the customer sees the number, registers a
// claim with an invoice PDF (mailed too, `submitted`); the admin downloads
// the invoice and records the agency's status, which the customer's list
// then shows. Rerunnable on one gateway (an account approved in an earlier
// run is kept; unique invoice numbers). Uses customer@example.com and
// admin@example.com (SEED_E2E=1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, byTestId, chooseOption, clickSideMenuItem, newPage, outbox, signIn, storedSession } from './helpers.mjs';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
/** Where the local gateway mails the hand-overs (shared::providers::inkasso::LOCAL_HANDOVER). */
const HANDOVER = 'inkasso@handover.invalid';

const handOverMails = async () => (await outbox()).filter((m) => String(m.to).includes(HANDOVER));

describe('debt collection (Inkasso)', { timeout: 240_000 }, () => {
  test('the customer applies, the office approves it, the claim is handed over and its status recorded', async () => {
    const customer = await newPage();
    const admin = await newPage();
    try {
      const { page } = customer;
      await signIn(page, 'customer@example.com', '/user/');
      const uid = (await storedSession(page)).user.uid;
      // From the dashboard through the menu, as a user gets there.
      await page.locator(byTestId('side-menu')).getByText(/^(Tjänster|Services)$/).first().click();
      await page.locator(byTestId('side-menu')).getByText(/Inkasso/).first().click();
      await page.waitForURL((u) => u.pathname === '/user/services/inkasso/');
      await page.locator(byTestId('inkasso-page')).waitFor();

      await signIn(admin.page, 'admin@example.com', '/admin/');
      if (!(await page.locator(byTestId('claim-form')).count())) {
        const mailsBefore = (await handOverMails()).length;
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
        // With the office: the screen says to come back, and can ask again.
        await page.locator(byTestId('inkasso-refresh')).waitFor();
        assert.match(await page.locator(byTestId('inkasso-state')).innerText(), /30 min/);
        assert.match(await page.locator(byTestId('inkasso-text')).innerText(), /överlämnad till byrån|handed over to the office/);
        // The hand-over mail carries what the agency registers a creditor with.
        const mails = await handOverMails();
        assert.equal(mails.length, mailsBefore + 1);
        assert.match(mails[0].body, /556000-0001[\s\S]*SE4550000000058398257466/);

        // The office: Customers → Inkasso hand-overs, approve with the agency's number.
        await clickSideMenuItem(admin.page, 'menu-item-customers', 'menu-item-customers-inkasso');
        await admin.page.waitForURL((u) => u.pathname === '/admin/customers/inkasso/');
        const application = admin.page.locator(`${byTestId('handover-application')}[data-customer="${uid}"]`);
        await application.waitFor();
        await application.locator(byTestId('handover-creditor-id')).fill('K-10234');
        const decided = admin.page.waitForResponse((r) => r.url().endsWith(`/api/admin/inkasso/${uid}/prospect/`));
        await application.locator(byTestId('handover-approve')).click();
        assert.equal((await decided).status(), 200);
        await application.waitFor({ state: 'detached' });

        await page.locator(byTestId('inkasso-refresh')).click();
      }
      await page.locator(byTestId('claim-form')).waitFor();
      assert.match(await page.locator(byTestId('inkasso-state')).innerText(), /^(Godkänt|Approved)$/);
      const hashes = await apiCall(page, 'GET', '/inkasso-hashs/');
      assert.equal(hashes.status, 200);
      assert.equal(hashes.body.length, 1);
      assert.equal(await page.locator(byTestId('inkasso-hash')).first().innerText(), hashes.body[0].creditor_id);

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
      assert.equal(claim.status, 'submitted');
      assert.ok((await handOverMails()).some((m) => m.body.includes(invoiceNumber)), 'the claim was mailed');

      const row = page.locator('tr', { hasText: invoiceNumber });
      await row.waitFor();
      assert.match(await row.innerText(), /12\s500,50\sSEK/);
      await row.locator(byTestId('claim-status')).filter({ hasText: /Inlämnat|Submitted/ }).waitFor();

      // The office downloads the invoice and records the agency's status.
      await admin.page.goto(new URL('/admin/customers/inkasso/', admin.page.url()).href);
      const open = admin.page.locator('tr', { hasText: invoiceNumber });
      await open.waitFor();
      const link = await apiCall(admin.page, 'GET', `/admin/inkasso/${uid}/claims/${claim.uid}/invoice/`);
      assert.equal(link.status, 200);
      assert.equal(Buffer.from(await (await fetch(link.body.url)).arrayBuffer()).subarray(0, 8).toString(), '%PDF-1.4');
      await chooseOption(admin.page, `tr:has-text("${invoiceNumber}") ${byTestId('handover-claim-status')}`, /Påminnelse skickad|Reminder sent/);
      await open.locator(byTestId('handover-claim-reference')).fill('INK-42');
      const saved = admin.page.waitForResponse((r) => r.url().endsWith(`/api/admin/inkasso/${uid}/claims/${claim.uid}/`));
      await open.locator(byTestId('handover-claim-save')).click();
      assert.equal((await saved).status(), 200);

      await page.locator(byTestId('claim-refresh')).click();
      await row.locator(byTestId('claim-status')).filter({ hasText: /Påminnelse skickad|Reminder sent/ }).waitFor();
      assert.match(await row.innerText(), /INK-42/);

      // The use is booked on the Incasso row (the subscriptions table's consumed column).
      const me = await apiCall(page, 'GET', '/customer/verify-services/?service=Incasso');
      assert.equal(me.status, 200);
      assert.ok(me.body[0].consumed_limit >= 1, JSON.stringify(me.body));
    } finally {
      await customer.context.close();
      await admin.context.close();
    }
  });
});
