// End-to-end tests of the pages every user has, reached by clicking
// from the dashboard: the customer's Documents page on the demo documents
// (public templates in both languages; case documents searched by name,
// filtered by type and by case, downloaded through a presigned URL), the
// contact's (its customer's documents only); Support (a ticket with a case
// and an attachment; admin answers and closes it; Statistics → Support
// counts by status); Freja Academy progress per user. Needs the demo cases
// and documents (SEED_DEMO_CASES=1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { apiCall, byTestId, chooseLanguage, clickSideMenuItem, signIn, withPage } from './helpers.mjs';

const menuItem = (id) => `${byTestId('side-menu')} ${byTestId(`menu-item-${id}`)}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** The names in the case documents table once it has settled on `count` rows. */
async function documentNames(page, count) {
  const rows = page.locator(`${byTestId('documents-table')} tbody tr.ant-table-row`);
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length === n,
    [`[data-testid="documents-table"] tbody tr.ant-table-row`, count],
  );
  return rows.locator('td:first-child').allTextContents();
}

/** Pick `label` in the antd Select with this test id. */
async function pick(page, testId, label) {
  await page.locator(byTestId(testId)).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: label }).first().click();
}

async function clearSelect(page, testId) {
  await page.locator(byTestId(testId)).hover();
  await page.locator(`${byTestId(testId)} .ant-select-clear`).click();
}

describe('documents, support and academy, by clicking', { timeout: 240_000 }, () => {
  test('customer (sv): public documents, case documents searched, filtered and downloaded; the contact (en) sees its customer\'s only', async () => {
    let all = [];
    await withPage('pages-documents-customer', async (page, context) => {
      await signIn(page, 'customer@example.com', '/user/');
      all = (await apiCall(page, 'GET', '/documents/')).body;
      assert.ok(all.length >= 6, `the demo documents are seeded (${all.length})`);
      await page.locator(menuItem('documents')).click();
      await page.waitForURL((u) => u.pathname === '/user/documents/');

      // Public documents and templates, in both languages.
      const templates = page.locator(`${byTestId('templates-table')} tbody tr.ant-table-row`);
      await templates.first().waitFor();
      const langs = await templates.locator('td:nth-child(3)').allTextContents();
      assert.ok(langs.includes('Svenska') && langs.includes('Engelska'), langs.join());

      assert.equal((await documentNames(page, Math.min(all.length, 10))).length, Math.min(all.length, 10));
      await page.locator(`${byTestId('documents-search')} input`).fill('hyresavtal');
      assert.deepEqual(await documentNames(page, 1), ['Hyresavtal 2025.pdf']);
      await page.locator(`${byTestId('documents-search')} input`).fill('');

      // By type: Word only.
      const words = all.filter((d) => d.kind === 'word');
      assert.ok(words.length >= 1);
      await pick(page, 'documents-kind', 'Word');
      assert.deepEqual((await documentNames(page, words.length)).sort(), words.map((d) => d.name).sort());
      await clearSelect(page, 'documents-kind');

      // By case: the case holding the PNG.
      const png = all.find((d) => d.kind === 'image');
      const inCase = all.filter((d) => d.case_uid === png.case_uid);
      await pick(page, 'documents-case', png.case_number);
      assert.deepEqual((await documentNames(page, inCase.length)).sort(), inCase.map((d) => d.name).sort());

      // Download: the presigned URL serves the PNG itself, under its name, and the page stays.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: `Ladda ner ${png.name}` }).click();
      const file = await download;
      assert.equal(file.suggestedFilename(), png.name);
      assert.ok(file.url().includes('X-Amz-Signature'), file.url());
      const bytes = await readFile(await file.path());
      assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
      assert.equal(new URL(page.url()).pathname, '/user/documents/');
      assert.equal(context.pages().length, 1, 'no empty tab left behind');
    });

    await withPage('pages-documents-contact', async (page) => {
      await signIn(page, 'contact@example.com', '/customer_contact/');
      await chooseLanguage(page, 'en');
      await page.locator(menuItem('documents')).click();
      await page.waitForURL((u) => u.pathname === '/customer_contact/documents/');
      const names = await documentNames(page, Math.min(all.length, 10));
      assert.ok(names.every((n) => all.some((d) => d.name === n)), 'only the customer\'s documents');
      assert.ok(!names.includes('Bygglov Kv. Eken.pdf'), 'never the other customer\'s');
      await page.getByRole('button', { name: `Download ${names[0]}` }).waitFor();
    });
  });

  test('support: the customer writes a ticket with a case and a file; admin (en) answers and closes it; the statistics count it', async () => {
    const subject = `Fråga om fakturan ${Date.now()}`;
    let id = 0;
    let counts = null;
    await withPage('pages-support-customer', async (page) => {
      await signIn(page, 'customer@example.com', '/user/');
      counts = (await apiCall(page, 'GET', '/support/counts/')).body;
      await page.locator(menuItem('support')).click();
      await page.waitForURL((u) => u.pathname === '/user/support/');
      await page.locator(byTestId('ticket-subject')).fill(subject);
      await page.locator(byTestId('ticket-message')).fill('Hej! Kan ni förklara timmarna i ärendet?');
      await page.locator(byTestId('ticket-case')).click();
      const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first();
      const caseLabel = await option.textContent();
      await option.click();
      await page.locator(`${byTestId('ticket-form')} input[type="file"]`).setInputFiles({ name: 'faktura.pdf', mimeType: 'application/pdf', buffer: PDF });
      const created = page.waitForResponse((r) => r.url().endsWith('/api/support/') && r.request().method() === 'POST');
      await page.locator(byTestId('ticket-submit')).click();
      const body = await (await created).json();
      id = body.id;
      assert.equal(body.case_number, caseLabel.split(' · ')[0]);
      const row = page.locator(`${byTestId('ticket-table')} tr.ant-table-row`, { hasText: subject });
      await row.locator(byTestId('ticket-status-open')).waitFor();
    });
    assert.ok(id > 0);

    await withPage('pages-support-admin', async (page) => {
      await signIn(page, 'admin@example.com', '/admin/');
      await chooseLanguage(page, 'en');
      await page.locator(menuItem('settings')).click();
      await page.locator(menuItem('settings-support')).click();
      await page.waitForURL((u) => u.pathname === '/admin/settings/support/');
      const row = page.locator(`${byTestId('ticket-table')} tr.ant-table-row`, { hasText: subject });
      await row.locator('.ant-table-row-expand-icon').click();
      const panel = page.locator(byTestId(`ticket-panel-${id}`));
      await panel.getByRole('button', { name: 'faktura.pdf' }).waitFor();
      await page.locator(byTestId(`ticket-reply-${id}`)).fill('Timmarna gäller genomgången av handlingarna.');
      await page.locator(byTestId(`ticket-send-${id}`)).click();
      await panel.locator(byTestId('ticket-answer')).waitFor();
      await row.locator(byTestId('ticket-status-answered')).waitFor();
      await page.locator(byTestId(`ticket-close-${id}`)).click();
      await row.locator(byTestId('ticket-status-closed')).waitFor();
    });

    await withPage('pages-support-customer-after', async (page) => {
      await signIn(page, 'customer@example.com', '/user/');
      await page.locator(menuItem('support')).click();
      const row = page.locator(`${byTestId('ticket-table')} tr.ant-table-row`, { hasText: subject });
      await row.locator(byTestId('ticket-status-closed')).waitFor();
      await row.locator('.ant-table-row-expand-icon').click();
      const answer = page.locator(`${byTestId(`ticket-panel-${id}`)} ${byTestId('ticket-answer')}`);
      await answer.waitFor();
      assert.ok((await answer.textContent()).includes('Support'), 'the answer is marked as staff');
      assert.equal(await page.locator(byTestId(`ticket-reply-${id}`)).count(), 0, 'a closed ticket takes no reply');

      // As a person clicks: again when the submenu was still opening and the click was lost.
      await clickSideMenuItem(page, 'menu-item-statistics', 'menu-item-statistics-support');
      await page.waitForURL((u) => u.pathname === '/user/statistics/support/');
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="support-count-closed"]')?.textContent === String(n),
        counts.closed + 1,
      );
      assert.equal(await page.locator(byTestId('support-count-total')).textContent(), String(counts.total + 1));
    });
  });

  test('academy: progress is per user — the customer completes a lesson, the contact has not', async () => {
    let lessonId = '';
    await withPage('pages-academy-customer', async (page) => {
      await signIn(page, 'customer@example.com', '/user/');
      await page.locator(menuItem('freja-academy')).click();
      await page.waitForURL((u) => u.pathname === '/user/academy/');
      const title = page.locator(byTestId('lesson-title-text'), { hasText: 'Så fungerar paket och timmar' });
      await title.click();
      // antd puts the test id on the checkbox's input.
      const box = page.locator(`[data-testid^="lesson-complete-"]`).first();
      await box.waitFor({ state: 'attached' });
      lessonId = (await box.getAttribute('data-testid')).replace('lesson-complete-', '');
      if (!(await box.isChecked())) {
        // The box is checked when the server has the progress. A click while the lesson's panel
        // opened once sent nothing: clicked again, as a person would, when nothing was sent.
        for (let attempt = 1; ; attempt++) {
          const saved = page.waitForResponse((r) => r.url().includes('/api/academy/') && r.request().method() !== 'GET', { timeout: 10_000 });
          await box.click();
          if (await saved.then(() => true, () => false)) break;
          assert.ok(attempt < 3, 'checking the lesson as completed sends its progress');
        }
      }
      await page.reload();
      await page.locator(byTestId('lesson-title-text'), { hasText: 'Så fungerar paket och timmar' }).click();
      await page.waitForFunction((id) => document.querySelector(`[data-testid="lesson-complete-${id}"]`)?.checked === true, lessonId);
    });
    await withPage('pages-academy-contact', async (page) => {
      await signIn(page, 'contact@example.com', '/customer_contact/');
      await page.locator(menuItem('academy')).click();
      await page.locator(byTestId('lesson-title-text'), { hasText: 'Så fungerar paket och timmar' }).click();
      await page.locator(byTestId(`lesson-complete-${lessonId}`)).waitFor({ state: 'attached' });
      assert.equal(await page.locator(byTestId(`lesson-complete-${lessonId}`)).isChecked(), false, 'another user\'s progress');
    });
  });
});
