// End-to-end test of sign-in, role guards, menus and language, against a
// running gateway that serves web/dist at "/" and the API under /api/.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/
//
// Uses playwright-core with the system Chromium (/usr/bin/chromium); no
// browser is downloaded. Elements are selected by data-testid, except where
// the language itself is checked.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, byTestId, chooseLanguage, fillLogin, login, logout, newPage, pathOf, url } from './helpers.mjs';

/** Demo accounts, their dashboards and the top-level menu entries (data-testid="menu-item-<id>"). */
const ACCOUNTS = [
  {
    role: 'admin',
    email: 'admin@example.com',
    prefix: '/admin/',
    menu: ['dashboard', 'cases', 'lawyers', 'customers', 'sales-persons', 'statistics', 'freja-academy', 'settings'],
    absent: ['documents', 'support'],
    foreign: '/lawyer/',
  },
  {
    role: 'lawyer',
    email: 'lawyer@example.com',
    prefix: '/lawyer/',
    menu: ['dashboard', 'cases', 'customers', 'statistics', 'freja-academy', 'video-meetings'],
    absent: ['settings', 'lawyers', 'sales-persons', 'documents'],
    foreign: '/admin/',
  },
  {
    role: 'sales',
    email: 'sales@example.com',
    prefix: '/sales/',
    menu: ['dashboard', 'cases', 'customers', 'statistics', 'freja-academy'],
    absent: ['settings', 'lawyers', 'documents'],
    foreign: '/user/',
  },
  {
    role: 'customer',
    email: 'customer@example.com',
    prefix: '/user/',
    menu: ['dashboard', 'cases', 'documents', 'users', 'services', 'statistics', 'support', 'freja-academy'],
    absent: ['settings', 'lawyers', 'sales-persons'],
    foreign: '/customer_contact/',
  },
  {
    role: 'customer contact',
    email: 'contact@example.com',
    prefix: '/customer_contact/',
    // Users and Services depend on the contact's permissions (spec §5), so they are not asserted here.
    menu: ['dashboard', 'cases', 'documents', 'statistics', 'support', 'academy'],
    absent: ['settings', 'lawyers', 'sales-persons'],
    foreign: '/user/',
  },
];

const menuItem = (id) => `${byTestId('side-menu')} ${byTestId(`menu-item-${id}`)}`;

// With motion on (every other flow asks for reduced motion, helpers.mjs newPage): these walk the
// side menu, the header's user menu (logout) and language switch, the dropdowns whose opening motion
// clickMenuItem waits out, so the animated path the most people see stays covered.
describe('roles', () => {
  for (const account of ACCOUNTS) {
    test(`${account.role}: login, dashboard, menu, foreign prefix, logout`, { timeout: 90_000 }, async () => {
      const { context, page } = await newPage({ motion: true });
      try {
        await login(page, account.email);
        await page.waitForURL((u) => u.pathname === account.prefix);
        assert.equal(new URL(page.url()).pathname, account.prefix);
        await page.locator(byTestId('dashboard-page')).waitFor();
        await page.locator(byTestId('side-menu')).waitFor();

        for (const id of account.menu) {
          assert.equal(await page.locator(menuItem(id)).count(), 1, `${account.role} menu should show '${id}'`);
          assert.ok(await page.locator(menuItem(id)).isVisible(), `${account.role} menu entry '${id}' visible`);
        }
        for (const id of account.absent) {
          assert.equal(await page.locator(menuItem(id)).count(), 0, `${account.role} menu should not show '${id}'`);
        }

        const searchesConflicts = account.role === 'admin' || account.role === 'lawyer';
        assert.equal(
          await page.locator(byTestId('conflict-search')).count(),
          searchesConflicts ? 1 : 0,
          'only admin and lawyers have the conflict search box',
        );
        if (account.role === 'admin') {
          mkdirSync(RESULTS_DIR, { recursive: true });
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: join(RESULTS_DIR, 'admin-dashboard.png') });
        }

        // A menu link works inside the role's area.
        await page.locator(menuItem('cases')).click();
        await page.waitForURL((u) => u.pathname.startsWith(`${account.prefix}cases`));
        await page.locator(byTestId('page-title')).waitFor();

        // A signed-in user on a public route goes to their dashboard.
        await page.goto(url('/login'));
        await page.waitForURL((u) => u.pathname === account.prefix);

        // Another role's prefix shows Page Not Found (no redirect).
        await page.goto(url(account.foreign));
        await page.locator(byTestId('not-found')).waitFor();
        assert.equal(new URL(page.url()).pathname, account.foreign);
        assert.equal(await page.locator(byTestId('side-menu')).count(), 0);

        await page.goto(url(account.prefix));
        await page.locator(byTestId('dashboard-page')).waitFor();
        await logout(page);
        const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('root') ?? 'null'));
        assert.equal(stored?.auth ?? null, null, 'logout clears the stored auth');
        assert.equal(stored?.user ?? null, null, 'logout clears the stored user');

        // Signed out, the role area sends back to /login.
        await page.goto(url(account.prefix));
        await page.waitForURL((u) => u.pathname === '/login');
      } finally {
        await context.close();
      }
    });
  }
});

describe('guards', () => {
  test('unauthenticated /admin/customers/ → /login → back to /admin/customers/ after login', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(url('/admin/customers/'));
      await page.waitForURL((u) => u.pathname === '/login');
      await page.locator(byTestId('login-form')).waitFor();
      await fillLogin(page, 'admin@example.com');
      await page.waitForURL((u) => u.pathname === '/admin/customers/');
      assert.equal(pathOf(page), '/admin/customers/');
      await page.locator(byTestId('page-title')).waitFor();
      assert.equal(await page.locator(menuItem('settings')).count(), 1);
    } finally {
      await context.close();
    }
  });

  test('wrong password stays on /login with an error', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(url('/login'));
      await page.locator(byTestId('login-form')).waitFor();
      await fillLogin(page, 'admin@example.com', 'wrong-password');
      await page.locator(byTestId('login-error')).waitFor();
      assert.equal(new URL(page.url()).pathname, '/login');
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('root') ?? 'null'));
      assert.equal(stored?.auth ?? null, null, 'no token is stored');
    } finally {
      await context.close();
    }
  });

  test('unknown path shows Page Not Found with a Go back button', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(url('/no/such/page'));
      await page.locator(byTestId('not-found')).waitFor();
      assert.equal(await page.locator(byTestId('not-found-back')).count(), 1);
      await page.locator(byTestId('not-found-back')).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.locator(byTestId('landing-login')).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('language', () => {
  test('switching to English changes the menu text and survives a reload', { timeout: 60_000 }, async () => {
    // With motion on, as the roles' tests above: the language switch's dropdown as it animates.
    const { context, page } = await newPage({ motion: true });
    try {
      await login(page, 'admin@example.com');
      await page.waitForURL((u) => u.pathname === '/admin/');
      const dashboard = page.locator(menuItem('dashboard'));
      await dashboard.waitFor();
      assert.equal((await dashboard.textContent())?.trim(), 'Översikt', 'Swedish is the default');
      assert.equal((await page.locator(menuItem('settings')).textContent())?.trim(), 'Inställningar');

      await chooseLanguage(page, 'en');
      await page.waitForFunction(
        (sel) => document.querySelector(sel)?.textContent?.trim() === 'Dashboard',
        menuItem('dashboard'),
      );
      assert.equal((await page.locator(menuItem('settings')).textContent())?.trim(), 'Settings');
      assert.equal((await page.locator(byTestId('language-switch')).textContent())?.trim(), 'English');

      await page.reload();
      await page.locator(menuItem('dashboard')).waitFor();
      assert.equal((await page.locator(menuItem('dashboard')).textContent())?.trim(), 'Dashboard');
      assert.equal((await page.locator(menuItem('settings')).textContent())?.trim(), 'Settings');

      // Back to Swedish, so the choice is not left behind for anyone.
      await chooseLanguage(page, 'sv');
      await page.waitForFunction(
        (sel) => document.querySelector(sel)?.textContent?.trim() === 'Översikt',
        menuItem('dashboard'),
      );
    } finally {
      await context.close();
    }
  });
});
