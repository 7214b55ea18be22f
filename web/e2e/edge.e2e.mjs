// The edge as a browser meets it: the static landing page
// at "/", and every page working under the Content-Security-Policy the gateway
// (and CloudFront) sends, without one violation.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, signIn, url, withPage } from './helpers.mjs';

/** Collects the page's CSP violations (as the browser reports them) from now on. */
async function watchViolations(page) {
  const violations = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return violations;
}

describe('edge', () => {
  test('the landing page at / is static, answers with the security headers, and leads into the app', { timeout: 60_000 }, async () => {
    await withPage('edge-landing', async (page) => {
      const violations = await watchViolations(page);
      const res = await page.goto(url('/'));
      const headers = res.headers();
      assert.match(headers['content-security-policy'] ?? '', /script-src 'self';/);
      assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
      assert.equal(headers['x-content-type-options'], 'nosniff');
      assert.equal(headers['x-frame-options'], 'DENY');
      assert.equal(headers['cache-control'], 'no-cache');
      await page.locator(byTestId('landing-login')).waitFor();
      assert.equal(await page.locator('#root').count(), 0, 'no single-page app on the landing page');
      await page.locator(byTestId('language-switch')).click();
      await page.locator(byTestId('language-option-en')).click();
      assert.equal(await page.locator('h1').textContent(), 'Legal help when you need it');
      await page.locator(byTestId('landing-login')).click();
      await page.locator(byTestId('login-form')).waitFor();
      // the app shows the language chosen on the landing page
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.deepEqual(violations, []);
    });
  });

  for (const [email, prefix] of [
    ['admin@example.com', '/admin/'],
    ['customer@example.com', '/user/'],
  ]) {
    test(`${prefix} works under the Content-Security-Policy`, { timeout: 90_000 }, async () => {
      await withPage(`edge-csp-${prefix.replaceAll('/', '')}`, async (page) => {
        const violations = await watchViolations(page);
        await signIn(page, email, prefix);
        await page.locator(byTestId('app-content')).waitFor();
        // a hashed asset is cached for a year, an API answer never
        const asset = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.includes('/assets/') && n.endsWith('.js')));
        const cache = await page.evaluate(async (a) => (await fetch(a)).headers.get('cache-control'), asset);
        assert.equal(cache, 'public, max-age=31536000, immutable');
        const api = await page.evaluate(async () => (await fetch('/api/openapi.json')).headers.get('cache-control'));
        assert.equal(api, 'no-store');
        assert.deepEqual(violations, []);
      });
    });
  }
});
