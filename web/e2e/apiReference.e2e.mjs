// The API reference (/api/docs): Redoc, served by the site itself, draws the
// OpenAPI document in Swedish (the default) and in English, on a desktop and
// on a phone, under the Content-Security-Policy (nothing loaded from another site).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { url, withPage } from './helpers.mjs';

// Redoc draws every operation of the document at once: on two busy cores that takes a while.
const DRAWN = 120_000;
/** One operation of the document, as Redoc names its section. */
const OPERATION = '[data-section-id="tag/auth/operation/two_factor_status"]';

/**
 * The one violation expected: the footer of Redoc's menu ("API docs by Redocly") asks for its logo from Redocly's
 * site; the policy refuses it (nothing is fetched from another site) and Redoc then leaves the image out.
 */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

async function open(page, path, viewport) {
  const violations = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text()) && !m.text().includes(REDOC_LOGO)) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.setViewportSize(viewport);
  const res = await page.goto(url(path));
  assert.equal(res.status(), 200);
  assert.match(res.headers()['content-security-policy'] ?? '', /script-src 'self';/);
  await page.locator(OPERATION).waitFor({ timeout: DRAWN });
  return violations;
}

describe('API reference', () => {
  test('draws the document in Swedish on a desktop', { timeout: 240_000 }, async () => {
    await withPage('api-reference-sv', async (page) => {
      const violations = await open(page, '/api/docs', { width: 1366, height: 900 });
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'sv');
      assert.equal(await page.title(), 'API-referens');
      assert.match(await page.locator(`${OPERATION} h2`).first().textContent(), /two-factor sign-in/);
      // Redoc's own texts in Swedish (web/api-reference/labels.json)
      await page.locator(`${OPERATION} h3`, { hasText: /^Svar$/ }).first().waitFor();
      assert.equal(await page.locator(`${OPERATION} h3`, { hasText: /^Responses$/ }).count(), 0);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1366), 'no sideways scrolling');
      assert.deepEqual(violations, []);
    });
  });

  test('draws the document in English on a phone', { timeout: 240_000 }, async () => {
    await withPage('api-reference-en', async (page) => {
      const violations = await open(page, '/api/docs?lang=en', { width: 390, height: 844 });
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await page.title(), 'API reference');
      await page.locator(`${OPERATION} h3`, { hasText: /^Responses$/ }).first().waitFor();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scrolling at 390 px');
      assert.deepEqual(violations, []);
    });
  });
});
