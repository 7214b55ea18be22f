// End-to-end test of the customer's data export: the customer opens "Mina
// uppgifter" from the user menu, asks for an export, follows it until the
// gateway's worker has built it, and downloads the ZIP; admin sees it on the
// customer's page. Uses customer@example.com and admin@example.com (SEED_E2E=1).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { byTestId, newPage, openUserMenuItem, signIn, storedSession } from './helpers.mjs';

const CUSTOMER = 'customer@example.com';
const ADMIN = 'admin@example.com';

describe('data export', { timeout: 240_000 }, () => {
  test('the customer asks for an export, follows it and downloads one ZIP; admin sees it on the customer page', async () => {
    let uid;
    const c = await newPage();
    try {
      await signIn(c.page, CUSTOMER, '/user/');
      uid = (await storedSession(c.page)).user.uid;
      await openUserMenuItem(c.page, 'user-menu-my-data');
      await c.page.waitForURL((u) => u.pathname === '/user/my-data/');
      // The address changes first; the page (its own chunk) follows, the one before shown until it is there.
      await c.page.locator(byTestId('page-title')).filter({ hasText: 'Mina uppgifter' }).waitFor();
      const asked = c.page.waitForResponse((r) => r.url().includes(`/api/customer/data-export/${uid}/`) && r.request().method() === 'POST');
      await c.page.locator(byTestId('data-export-request')).click();
      assert.equal((await asked).status(), 202);
      // The page polls until the worker has built it.
      await c.page.locator(byTestId('data-export-download')).first().waitFor({ timeout: 120_000 });
      assert.match(await c.page.locator(byTestId('data-export-ready')).first().innerText(), /Kan laddas ner till och med \d{4}-\d{2}-\d{2}/);
      const [download] = await Promise.all([c.page.waitForEvent('download'), c.page.locator(byTestId('data-export-download')).first().click()]);
      assert.match(download.suggestedFilename(), /^data-export-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = readFileSync(await download.path());
      assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');
      assert.ok(zip.includes(Buffer.from('profile.json')) && zip.includes(Buffer.from('cases.json')), 'the parts are in the ZIP');
    } finally {
      await c.context.close();
    }

    const a = await newPage();
    try {
      await signIn(a.page, ADMIN, '/admin/');
      await a.page.goto(new URL(`/admin/customers/details/${uid}`, a.page.url()).href);
      await a.page.locator(byTestId('data-export-ready')).first().waitFor();
      assert.match(await a.page.locator(byTestId('data-export-panel')).innerText(), /GDPR/);
    } finally {
      await a.context.close();
    }
  });
});
