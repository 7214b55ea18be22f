import { chromium } from 'playwright-core';
const BASE = process.env.BASE_URL;
const roles = [['admin@example.com','/admin/'],['lawyer@example.com','/lawyer/'],['sales@example.com','/sales/'],['customer@example.com','/user/'],['contact@example.com','/customer_contact/']];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
for (const [email, prefix] of roles) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'sv-SE' });
  const page = await ctx.newPage();
  await page.goto(BASE + '/login');
  await page.locator('[data-testid="login-email"]').fill(email);
  await page.locator('[data-testid="login-password"]').fill('Demo-2026-pass!');
  await page.locator('[data-testid="login-submit"]').click();
  await page.waitForURL((u) => u.pathname === prefix);
  await page.waitForTimeout(1500);
  const role = prefix.replace(/\//g, '') ;
  await page.screenshot({ path: `/tmp/walk/${role}-00-dashboard.png` });
  // expand groups
  const groups = page.locator('.ant-menu-submenu-title');
  for (let i = 0; i < await groups.count(); i++) { try { await groups.nth(i).click(); await page.waitForTimeout(200); } catch {} }
  const items = page.locator('[data-testid^="menu-item-"]');
  const n = await items.count();
  const ids = [];
  for (let i = 0; i < n; i++) ids.push(await items.nth(i).getAttribute('data-testid'));
  let k = 1;
  for (const id of ids) {
    try {
      const el = page.locator(`[data-testid="${id}"]`);
      if (!(await el.isVisible())) { const g = page.locator('.ant-menu-submenu-title'); for (let j=0;j<await g.count();j++){ try{await g.nth(j).click();}catch{} } }
      await el.click({ timeout: 3000 });
      await page.waitForTimeout(1200);
      const text = (await page.locator('main, .ant-layout-content').first().innerText().catch(() => '')).slice(0, 140).replace(/\s+/g, ' ');
      console.log(role, id, new URL(page.url()).pathname, '|', text);
      await page.screenshot({ path: `/tmp/walk/${role}-${String(k++).padStart(2, '0')}-${id}.png` });
    } catch (e) { console.log(role, id, 'ERROR', e.message.split('\n')[0]); }
  }
  await ctx.close();
}
await browser.close();
