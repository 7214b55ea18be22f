// Every job by clicking: per role, a crawler starts at the
// dashboard and follows only what a person can click — menu entries (groups
// opened), the user menu, tabs, segmented switches, links and buttons that
// navigate, the customer-details modal opened from a customer's name, the
// header's conflict search — and fails when a route of the role's table (from
// the route catalogue, src/routes/roleTables.ts) is not reached, or when a
// reached page shows a placeholder, Page Not Found, an unhandled error or a
// server error (5xx). It prints the routes it reached.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/
//
// Needs the demo cases (SEED_DEMO_CASES=1), as ./infra/dev.sh and infra/test.sh
// start the gateway. CRAWL_DEBUG=1 prints each click. The admin is also
// crawled at phone size (390×844), where the menu opens from the header, and
// the customer at phone size in English.
//
// Every page reached is also read as a person would: it fails on a text that
// looks like a translation key ("languages.sv", "invalid_post_code"), on
// "undefined", "NaN" or "Invalid Date", on Swedish interface words in English
// pages, and at phone size on an interactive element outside the screen's
// width or a page that scrolls sideways.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { RESULTS_DIR, animationsDone, apiCall, byTestId, chooseLanguage, getBrowser, signIn, url } from './helpers.mjs';

/**
 * Routes that may show the placeholder page: none any more (every route of
 * the catalogue has its page). Kept so a screen of a future issue can be
 * named here while it is built.
 */
const KNOWN_NOT_BUILT = new Set();

/**
 * Routes whose way in belongs to an issue still open, so no click leads
 * there yet: none any more. Kept so such a route can be named while its way
 * in is built.
 */
const NOT_LINKED_YET = new Set();

/**
 * Swedish words of the interface (not of the demo data, which is Swedish
 * whatever the reader's language: case subjects, company names): none may
 * show on an English page.
 */
export const SWEDISH_UI_WORDS = [
  'Spara', 'Avbryt', 'Tomt', 'Sök', 'Ändra', 'Inställningar', 'Väntande', 'Stängda', 'Timmar', 'Kunder', 'Ärenden',
  'Lägg till', 'Ta bort', 'Skapa', 'Logga ut', 'Notiser', 'Meddelanden', 'Tjänster', 'Abonnemang', 'Startdatum',
  'Löper ut', 'Jurister', 'Säljare', 'Översikt', 'Statistik', 'Rättsskydd', 'Videomöte',
  'Avtalskollen', 'Inga', 'Ladda ner', 'Användare', 'Åtgärder', 'Dokument saknas', 'tim', 'Ja', 'Nej',
];

/**
 * Seeded people whose names are also interface words (the sales person Sara Säljare): demo data, shown
 * as stored in either language (e.g. in a customer's audit trail when she acted on its account).
 */
const DEMO_NAMES = /Sara Säljare/gu;

/** Stored endings of what is not a key though it has dots: addresses and file names. */
const NOT_A_KEY = /\.(se|com|org|net|nu|eu|io|no|dk|fi|pdf|docx?|xlsx?|csv|pptx?|png|jpe?g|gif|mp4|txt|html?)$/i;

/**
 * What a reader of `lang` must not see in `text` (the page's visible text):
 * translation keys (dotted: "languages.sv"; a server key: "invalid_post_code"),
 * "undefined", "NaN", "Invalid Date", and in English Swedish interface words.
 */
export function textProblems(text, lang) {
  const found = [];
  const dotted = text.match(/(?<![\p{L}\d_@/.:-])[a-z][a-zA-Z0-9]*(?:_[a-zA-Z0-9]+)*(?:\.[a-zA-Z][a-zA-Z0-9_]*)+(?![\p{L}\d_@/.-])/gu) ?? [];
  for (const k of dotted) if (!NOT_A_KEY.test(k)) found.push(`a translation key "${k}"`);
  for (const k of text.match(/(?<![\p{L}\d_@/.:-])[a-z]+(?:_[a-z0-9]+)+(?![\p{L}\d_@/.-])/gu) ?? []) found.push(`a raw key "${k}"`);
  for (const raw of ['undefined', 'NaN', 'Invalid Date']) if (new RegExp(`(?<![\\p{L}])${raw}(?![\\p{L}])`, 'u').test(text)) found.push(`"${raw}"`);
  if (lang === 'en') {
    const ui = text.replace(DEMO_NAMES, '');
    for (const w of SWEDISH_UI_WORDS) if (new RegExp(`(?<![\\p{L}])${w}(?![\\p{L}])`, 'u').test(ui)) found.push(`the Swedish "${w}" in English`);
  }
  return [...new Set(found)];
}

/**
 * At phone size: the interactive elements that lie outside the screen's
 * width (to be reached only by scrolling sideways), and whether the page
 * itself scrolls sideways. Run in the page.
 */
function offScreen() {
  const width = document.documentElement.clientWidth;
  const found = [];
  if (document.documentElement.scrollWidth > width + 1) found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px wide on a ${width} px screen)`);
  const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="checkbox"], [role="switch"], [role="menuitem"], [role="menuitemradio"]';
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    // Clipped on purpose with their own way to them: antd's tab strip (a "more" menu) and the closed side menu.
    if (el.closest('.ant-tabs-nav, .ant-layout-sider, .ant-drawer, [aria-hidden="true"], .ant-picker-dropdown, .ant-select-dropdown')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    if (r.right > width + 1 || r.left < -1) {
      const name = (el.getAttribute('data-testid') || el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40);
      found.push(`"${name}" lies outside the screen (${Math.round(r.left)}–${Math.round(r.right)} of ${width} px)`);
    }
  }
  return found.slice(0, 5);
}

/** Routes linked from pages only where the role's menu, as the user's permissions show it, has them (roleTables.menuShows). */
const MENU_GATED = new Set(['videoMeeting']);

/** How many pages of one route the crawler explores (a few cases: their links differ by status). */
const EXPLORE_LIMIT = {
  caseDetails: 10,
  // The first customer whose modal the crawl opens may be one awaiting
  // approval (the pending list comes first), which has no users yet: the
  // users page of a second customer shows the contacts' edit links.
  customerUsers: 2,
};
const DEFAULT_EXPLORE_LIMIT = 1;

/**
 * The newest case of the list `listWord` with no entries yet of a kind (`kind`: `hour` or `additional_hour`,
 * read from case/<kind>/list/), or null (no case, or it has some already).
 */
async function firstCaseWithout(page, listWord, kind) {
  const list = await apiCall(page, 'GET', `/case/list/?status=${listWord}`);
  const c = list.body?.results?.[0];
  if (!c) return null;
  const entries = await apiCall(page, 'GET', `/case/${kind}/list/?case=${c.uid}`);
  return Array.isArray(entries.body) && entries.body.length ? null : c;
}

/**
 * Data a route needs before anyone can click to it, made through the API
 * (the seed has none): an additional-hours entry on the newest case in
 * progress of the list, whose edit page is additionalHourUpdate.
 */
async function additionalHourOnFirstCase(page, listWord) {
  const c = await firstCaseWithout(page, listWord, 'additional_hour');
  if (!c) return;
  const made = await apiCall(page, 'POST', '/case/additional_hour/create/', { case_uid: c.uid, lawyer: c.lawyer ?? undefined, month: '2026-01', total_hour: '1,5' });
  // Another role's crawl, running beside this one, may have made it first.
  const taken = JSON.stringify(made.body ?? '').includes('additional_hour_month_taken');
  assert.ok(made.status < 300 || taken, `additional hours for the crawl: ${made.status} ${JSON.stringify(made.body)}`);
}

/** An hour entry on the newest case of the lawyer's list (its edit page is caseHourUpdate). */
async function hourOnFirstCase(page, listWord) {
  const c = await firstCaseWithout(page, listWord, 'hour');
  if (!c) return;
  const made = await apiCall(page, 'POST', '/case/hour/create/', { case_uid: c.uid, hour: '1,5', date: '2026-03-02', description: 'Crawl' });
  assert.ok(made.status < 300, `an hour entry for the crawl: ${made.status} ${JSON.stringify(made.body)}`);
}

/** A company user under the first customer of a list (its users page links to the user's edit page). */
async function contactUnderFirstCustomer(page, status) {
  const list = await apiCall(page, 'GET', `/customer/list/?status=${status}`);
  const c = list.body?.results?.find((r) => r.state !== 'pending');
  if (!c) return;
  const users = await apiCall(page, 'GET', `/user/list/?customer=${c.uid}`);
  if (users.body?.results?.length) return;
  const made = await apiCall(page, 'POST', '/customers/user/create/', {
    customer: c.uid,
    first_name: 'Crawl',
    last_name: 'Contact',
    email: `crawl-contact-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    permissions: [],
  });
  assert.ok(made.status < 300, `a company user for the crawl: ${made.status} ${JSON.stringify(made.body)}`);
}

/**
 * The company's signing account and a draft envelope (its edit link is
 * contractSignUpdate): a customer registers the account once on the
 * contract-sign screen before its create button shows (the add-on test does
 * that by clicking), and only drafts can be edited.
 */
async function signingDraft(page) {
  const check = await apiCall(page, 'GET', '/verified/check/');
  if (!check.body?.registered) {
    const made = await apiCall(page, 'POST', '/verified/', { company: 'kund-demo-ab', email: `signing-${Date.now()}@example.com`, password: 'Signing-pass-1' });
    // The company's other user, crawled beside this one, may have registered it first.
    const now = made.status < 300 || (await apiCall(page, 'GET', '/verified/check/')).body?.registered;
    assert.ok(now, `the signing account for the crawl: ${made.status} ${JSON.stringify(made.body)}`);
  }
  const list = await apiCall(page, 'GET', '/services/contract-sign/');
  if (Array.isArray(list.body) && list.body.some((e) => e.state === 'draft')) return;
  const target = await apiCall(page, 'POST', '/services/contract-sign/upload-url/', { name: 'avtal.pdf' });
  assert.equal(target.status, 200, `an upload address for the crawl: ${JSON.stringify(target.body)}`);
  const put = await page.evaluate(
    async ({ to, type }) => (await fetch(to, { method: 'PUT', body: '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', headers: { 'Content-Type': type } })).status,
    { to: target.body.url, type: target.body.content_type },
  );
  assert.ok(put < 300, `the crawl's PDF upload: ${put}`);
  const recipient = { name: 'Signe Ett', email: 'signe.ett@example.com', phone: '', locale: 'sv', role: 'signer', notify_sms: false, require_auth: false, sign_method: 'bankid_se' };
  const draft = await apiCall(page, 'POST', '/services/contract-sign/', {
    name: 'Crawl avtal',
    documents: [{ key: target.body.key, name: target.body.name }],
    recipients: [recipient],
    sequential: false,
  });
  assert.ok(draft.status < 300, `a draft envelope for the crawl: ${draft.status} ${JSON.stringify(draft.body)}`);
}

/** A department (its list links to its edit page). */
async function aDepartment(page) {
  const list = await apiCall(page, 'GET', '/customer/department/');
  if (Array.isArray(list.body) && list.body.length) return;
  const made = await apiCall(page, 'POST', '/customer/department/', { name: 'Stockholm', description: '' });
  assert.ok(made.status < 300, `a department for the crawl: ${made.status} ${JSON.stringify(made.body)}`);
}

/** What admin's lists need to show: an additional-hours entry, a contact, a department. */
async function adminData(page) {
  await additionalHourOnFirstCase(page, 'active');
  await contactUnderFirstCustomer(page, 'active');
  await aDepartment(page);
}

/** What the lawyer's lists need to show: an hour entry and an additional-hours entry on a case of theirs. */
async function lawyerData(page) {
  await hourOnFirstCase(page, 'my');
  await additionalHourOnFirstCase(page, 'my');
}

/** One row a role: who signs in, where its pages start, and the data its lists need first. */
const ACCOUNTS = [
  { role: 'admin', email: 'admin@example.com', prefix: '/admin/', prepare: adminData },
  { role: 'lawyer', email: 'lawyer@example.com', prefix: '/lawyer/', prepare: lawyerData },
  { role: 'sales', email: 'sales@example.com', prefix: '/sales/', prepare: (page) => contactUnderFirstCustomer(page, 'all') },
  { role: 'customer', email: 'customer@example.com', prefix: '/user/', prepare: signingDraft },
  { role: 'customerContact', email: 'contact@example.com', prefix: '/customer_contact/', prepare: signingDraft },
];

/** The role tables of the route catalogue, bundled for node from the app's own source. */
async function loadRoleTables() {
  const input = fileURLToPath(new URL('../src/routes/roleTables.ts', import.meta.url));
  const out = await build({
    input,
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    platform: 'node',
    write: false,
    transform: { jsx: 'react-jsx' },
    output: { format: 'esm' },
    logLevel: 'silent',
  });
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'route-tables.mjs');
  writeFileSync(file, out.output[0].code);
  return import(`${pathToFileURL(file).href}?t=${Date.now()}`);
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The role's routes as matchers of a pathname. */
function matchers(tables, role, prefix) {
  return tables.routesFor(role).map((r) => {
    const body = r.path
      .replace(/\/$/, '')
      .split(/(:\w+)/)
      .map((part) => (part.startsWith(':') ? '[^/]+' : escapeRe(part)))
      .join('');
    return { id: r.id, re: new RegExp(`^${escapeRe(prefix)}${body}${body ? '/?' : ''}$`) };
  });
}

const routeIdOf = (routes, pathname) => routes.find((m) => m.re.test(pathname))?.id ?? null;

/** API calls in flight per page: a page reached through history has no load event to wait for. */
const inflight = new WeakMap();
function countApiCalls(page) {
  inflight.set(page, 0);
  const api = (r) => r.url().includes('/api/');
  page.on('request', (r) => api(r) && inflight.set(page, inflight.get(page) + 1));
  const done = (r) => api(r) && inflight.set(page, Math.max(0, inflight.get(page) - 1));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

async function settle(page) {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  // Until the page's API calls have been answered for a moment (a list keeps
  // its old rows until its new page arrives: links read before would vanish).
  for (let quiet = 0, waited = 0; quiet < 3 && waited < 10_000; waited += 100) {
    await page.waitForTimeout(100);
    quiet = (inflight.get(page) ?? 0) === 0 ? quiet + 1 : 0;
  }
  // A list's first page and a dashboard's figures show skeletons, other waits a spinner.
  await page
    .locator(
      '.ant-spin-spinning, [data-testid="loading"], [data-testid="list-loading"], [data-testid="page-skeleton"], [data-testid="dashboard-figures-loading"], [data-testid="area-skeleton"]',
    )
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/**
 * A customer contact has only what its permissions allow (spec §5): a route
 * it lacks the permission for, or whose every menu place is hidden from it, is not its to reach.
 */
function withheldFrom(role, tables, held, prefix) {
  const withheld = new Set();
  if (role === 'customerContact') {
    const ctx = { userType: 4, permissions: held };
    const visible = new Set();
    const hidden = new Set();
    // A group the contact's menu hides hides its entries too (its pages are linked only where the menu has them).
    const walk = (defs, groupHidden = false) => {
      for (const d of defs) {
        const off = groupHidden || (d.visible && !d.visible(ctx));
        if (d.children) walk(d.children, off);
        else if (d.path) (off ? hidden : visible).add(d.path);
      }
    };
    walk(tables.menuFor(role));
    for (const r of tables.routesFor(role)) {
      const path = `${prefix}${r.path}`;
      if ((r.contactNeeds && !held.includes(r.contactNeeds)) || (hidden.has(path) && !visible.has(path))) withheld.add(r.id);
      // Pages whose links elsewhere (the dashboard's "All meetings") show only where the menu has the page.
      if (MENU_GATED.has(r.id) && !tables.menuShows(role, r.id, ctx)) withheld.add(r.id);
    }
  }
  return withheld;
}

/**
 * Crawls one role. Each step is a click on a page reached by clicks: a link
 * (`a[href]` inside the role's area), after doing what reveals it (opening
 * the menu and its groups, the user menu, the customer modal); tabs and
 * segmented switches; the conflict search. Returns what it reached and the
 * problems it saw.
 */
async function crawl(
  { role, email, prefix, prepare },
  tables,
  viewport,
  {
    lang = 'sv',
    menuOnly = false,
    share = [0, 1],
    deal = new Map(),
    together = new Set(),
    visited = [],
    firstPassDone = async () => undefined,
    prepared = resolvable(),
  } = {},
) {
  const routes = matchers(tables, role, prefix);
  const browser = await getBrowser();
  // Reduced motion (the app then turns antd's motion off, config/theme.ts): menus and
  // dropdowns open at once, and the browsers spend less of the machine drawing them.
  const context = await browser.newContext({ viewport, locale: 'sv-SE', reducedMotion: process.env.CRAWL_MOTION ? 'no-preference' : 'reduce' });
  const page = await context.newPage();
  countApiCalls(page);
  page.setDefaultTimeout(30_000); // a limit for failing: five roles crawl side by side on two cores
  const problems = [];
  const errors = [];
  page.on('pageerror', (e) => errors.push(`unhandled error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500 && r.url().includes('/api/')) errors.push(`server error ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });

  /** route id → first path reached */
  const reached = new Map();
  /** route id (or unknown path) → pages explored */
  const explored = new Map();
  /** paths clicked to (each once) */
  const clicked = new Set();
  const queue = [];
  /** paths arrived at (with their query) */
  const arrivedAt = new Set();

  const keyOf = (pathname) => routeIdOf(routes, pathname) ?? `?${pathname}`;
  const limitOf = (key) => EXPLORE_LIMIT[key] ?? DEFAULT_EXPLORE_LIMIT;

  /** Checks the page the crawler landed on; queues it for exploring. */
  async function arrive(via) {
    await settle(page);
    const { pathname, search } = new URL(page.url());
    const id = routeIdOf(routes, pathname);
    const where = `${pathname}${search} (via ${via})`;
    if (errors.length) problems.push(...errors.splice(0).map((e) => `${e} at ${where}`));
    if (!pathname.startsWith(prefix)) return;
    if (await page.locator(byTestId('not-found')).count()) problems.push(`Page Not Found at ${where}`);
    if (!id) {
      problems.push(`no route of the ${role} table matches ${where}`);
      return;
    }
    if ((await page.locator(byTestId('page-placeholder')).count()) && !KNOWN_NOT_BUILT.has(id)) problems.push(`placeholder at ${where} (${id})`);
    // What the reader sees: no keys or raw values, the page's language, and on a phone all within the screen.
    const text = await page.locator('body').innerText().catch(() => '');
    for (const p of textProblems(text, lang)) problems.push(`${p} at ${where}`);
    if (viewport.width < 768) for (const p of await page.evaluate(offScreen)) problems.push(`${p} at ${where}`);
    // A phone's closed menu leaves nothing over the page (no group popped up).
    if (menuOnly && (await page.locator('.side-menu-flyout').filter({ visible: true }).count())) problems.push(`a menu group pops up over ${where}`);
    if (!reached.has(id)) reached.set(id, `${pathname}${search}`);
    together.add(id);
    const n = explored.get(id) ?? 0;
    const here = `${pathname}${search}`;
    // In the second look a new page of a route with several kinds (a draft's
    // details, not only an open case's) is explored beyond its limit: what it
    // links to is why the second look came.
    if (n < limitOf(id) || (lookingAgain && limitOf(id) > 1 && !arrivedAt.has(here))) {
      explored.set(id, n + 1);
      queue.push(here);
    }
    arrivedAt.add(here);
  }

  async function openMenu() {
    const toggle = page.locator(byTestId('menu-toggle'));
    const sider = page.locator(byTestId('app-sider'));
    if ((await sider.count()) && (await sider.boundingBox())?.width < 10 && (await toggle.count())) await toggle.click();
    // open every group of the left menu
    let opened = 0;
    const closedSel = `${byTestId('side-menu')} button[aria-expanded="false"]`;
    for (let i = 0; i < 10; i++) {
      const closed = page.locator(closedSel);
      const before = await closed.count();
      if (!before) break;
      await closed.first().click();
      opened++;
      // Until the group counts as open (a click lost on a busy machine: the next round clicks again).
      await page
        .waitForFunction(([sel, n]) => document.querySelectorAll(sel).length < n, [closedSel, before], { timeout: 1_000 })
        .catch(() => undefined);
    }
    // Until the groups' opening motion ends (their entries have no size before): at once with
    // reduced motion, the crawl's default.
    if (opened) await animationsDone(page);
  }

  /** A phone's open menu covers the page: close it as a person would (tap beside it). */
  async function closeMenu() {
    const mask = page.locator(byTestId('app-sider-mask'));
    if (await mask.count()) await mask.click({ position: { x: 380, y: 400 } }).catch(() => undefined);
  }

  /** What reveals links on a page: nothing, the menu, the user menu, a customer's details modal. */
  const REVEALS = {
    page: closeMenu,
    menu: openMenu,
    userMenu: async () => {
      await closeMenu();
      await page.locator(byTestId('user-menu')).click();
      await page.locator('.plain-menu-popup[role="menu"]').first().waitFor();
    },
    // The header's dropdowns (spec §2): their footer links to the full pages.
    // Looking for links (`patient` false), a page without the button gives up
    // after 3 s; following a link found in one (`patient`), the button is
    // there, and a busy machine may take longer than that to draw it.
    messagesDropdown: async (patient) => {
      await closeMenu();
      await page.locator(byTestId('header-messages')).filter({ visible: true }).first().click({ timeout: patient ? undefined : 3_000 });
      await page.locator(byTestId('header-messages-dropdown')).waitFor({ timeout: patient ? undefined : 5_000 });
    },
    notificationsDropdown: async (patient) => {
      await closeMenu();
      await page.locator(byTestId('header-notifications')).filter({ visible: true }).first().click({ timeout: patient ? undefined : 3_000 });
      await page.locator(byTestId('header-notifications-dropdown')).waitFor({ timeout: patient ? undefined : 5_000 });
    },
    customerModal: async () => {
      await closeMenu();
      await page.locator('[data-testid^="customer-name-"]').first().click();
      await page.locator(byTestId('customer-links')).waitFor({ timeout: 10_000 });
    },
  };

  /** While the dashboard's links are dealt out between shared crawlers (see below). */
  let dealing = false;
  /** The second look (see below): only links to routes nobody reached yet. */
  let lookingAgain = false;
  /** Routes that are not this user's to reach (a contact's permissions): no second look for them. */
  let withheld = new Set();
  const ONCE_READS = 3;
  const onceReads = new Map();
  const ONCE = new Set(['menu', 'userMenu', 'messagesDropdown', 'notificationsDropdown']);

  /** Internal links of the role's area visible now. */
  async function visibleLinks() {
    return page.evaluate((pre) => {
      const out = [];
      // An open dialog's mask covers the page: a user reaches only the dialog's links.
      const dialogs = [...document.querySelectorAll('.ant-modal-wrap')].filter((w) => getComputedStyle(w).display !== 'none');
      for (const a of document.querySelectorAll('a[href]')) {
        const r = a.getBoundingClientRect();
        if (!r.width || !r.height || a.closest('[aria-hidden="true"]')) continue;
        if (dialogs.length && !dialogs.some((w) => w.contains(a))) continue;
        // not in a closed menu (width 0 on a phone)
        const sider = a.closest('.ant-layout-sider');
        if (sider && sider.getBoundingClientRect().width < 10) continue;
        if (a.target === '_blank' || a.hasAttribute('download')) continue;
        const u = new URL(a.href, location.href);
        if (u.origin !== location.origin || !u.pathname.startsWith(pre)) continue;
        out.push(a.getAttribute('href'));
      }
      return [...new Set(out)];
    }, prefix);
  }

  /**
   * Back to a page the crawl already reached by clicking: through the
   * router's own history (as the browser's back button does), not a full
   * reload — reloads were most of the crawl's time. The first page loads.
   */
  async function goTo(path) {
    const now = new URL(page.url());
    // At phone size the menu is a drawer whose state a history step keeps: load afresh.
    if (menuOnly || now.origin !== new URL(url('/')).origin || !now.pathname.startsWith(prefix)) {
      await page.goto(url(path));
    } else if (`${now.pathname}${now.search}` !== path) {
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await page.waitForURL((u) => `${u.pathname}${u.search}` === path, { timeout: 5_000 }).catch(() => undefined);
    }
    await settle(page);
  }

  /** From `from`, reveal and click the link to `href`; then come back. */
  async function follow(from, reveal, href) {
    if (new URL(page.url()).pathname + new URL(page.url()).search !== from) await goTo(from);
    await REVEALS[reveal](true);
    // With the menu open, the same address can also be a link on the page under
    // it (a phone's menu covers the page): take the menu's own entry.
    const inMenu = reveal === 'menu' ? page.locator(`${byTestId('side-menu')} a[href="${href}"]`).filter({ visible: true }) : null;
    const menuHasIt = !!inMenu && (await inMenu.count()) > 0;
    if (inMenu && !menuHasIt) await closeMenu();
    // A dialog's link, not the same address on the page under its mask.
    const scope = reveal === 'customerModal' ? '.ant-modal-wrap ' : '';
    const link = (menuHasIt ? inMenu : page.locator(`${scope}a[href="${href}"]`).filter({ visible: true })).first();
    // A list's rows render after its fetch: wait for the link before giving up on it here.
    if (!(await link.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false))) {
      clicked.delete(href);
      return;
    }
    if (process.env.CRAWL_DEBUG) console.log(`[crawl ${role}${share[1] > 1 ? share[0] : ""} ${Math.round(performance.now() / 1000)}s] ${from} -> ${href} (${reveal})`);
    try {
      await link.click({ timeout: 5_000 });
    } catch {
      // A page reached through history can still be settling (a list
      // re-rendering under its spinner): load it afresh and click once more.
      await page.goto(url(from));
      await settle(page);
      await REVEALS[reveal](true);
      const again = page.locator(`${scope}a[href="${href}"]`).filter({ visible: true }).first();
      // Gone after a fresh load: it belonged to what the page showed before (another list's rows).
      if (!(await again.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false))) {
        clicked.delete(href);
        return;
      }
      await again.click();
    }
    await page.waitForURL((u) => `${u.pathname}${u.search}` !== from, { timeout: 5_000 }).catch(() => undefined);
    await arrive(`${from} → ${reveal} link ${href}`);
    // Back, as a person would (the next link starts from `from` again).
    const now = new URL(page.url());
    if (`${now.pathname}${now.search}` !== from) {
      await page.goBack().catch(() => undefined);
      await settle(page);
    }
  }

  async function explore(from) {
    if (process.env.CRAWL_DEBUG) console.log(`[crawl ${role}${share[1] > 1 ? share[0] : ""} ${Math.round(performance.now() / 1000)}s] explore ${from}`);
    const fromHere = new Set();
    if (!lookingAgain) visited.push(from);
    await goTo(from);
    if (errors.length) problems.push(...errors.splice(0).map((e) => `${e} at ${from}`));
    // Links on the page, in the menu, the user menu and a customer's modal.
    for (const reveal of menuOnly ? ['menu', 'userMenu'] : Object.keys(REVEALS)) {
      if (reveal === 'customerModal' && !(await page.locator('[data-testid^="customer-name-"]').count())) continue;
      // The menu, the user menu and the header's dropdowns are the same on
      // every page: read on the first few pages only (reading them on each
      // page was a third of the crawl; more than once, as a group that did not
      // open in time on one page hides its entries there).
      if (ONCE.has(reveal)) {
        const reads = onceReads.get(reveal) ?? 0;
        if (reads >= ONCE_READS) continue;
        onceReads.set(reveal, reads + 1);
      }
      if (new URL(page.url()).pathname + new URL(page.url()).search !== from) await goTo(from);
      try {
        await REVEALS[reveal]();
      } catch {
        continue;
      }
      const hrefs = await visibleLinks();
      await page.keyboard.press('Escape').catch(() => undefined);
      for (const href of hrefs) {
        const target = new URL(href, url('/')).pathname;
        const key = keyOf(target);
        if (lookingAgain) {
          // Links to routes nobody reached; and to a not yet opened page of a
          // route reached through several kinds of rows (case details: the
          // first pass opens ten, and whether the one draft among them is
          // depends on which lists drew first — only a draft's details link
          // to its edit page).
          const to = new URL(href, url('/'));
          const anotherKind = limitOf(key) > 1 && !arrivedAt.has(`${to.pathname}${to.search}`);
          if ((together.has(key) && !anotherKind) || key.startsWith('?') || withheld.has(key)) continue;
        } else if (clicked.has(href) || (explored.get(key) ?? 0) >= limitOf(key)) continue;
        // CRAWL_HIDE=messages,caseEdit: those routes' links are passed over in the first pass (to see the second look find them).
        if (!lookingAgain && process.env.CRAWL_HIDE?.split(',').includes(key)) continue;
        // Shared crawl: the dashboard's links (menus included) are dealt out in turn.
        // Each link has one owner, the next in turn when a crawler first sees it.
        if (dealing) {
          if (!deal.has(href)) deal.set(href, deal.size % share[1]);
          if (deal.get(href) !== share[0]) continue;
        }
        // One link per route from a page (a list's first row): each list adds its own kind of case.
        if (fromHere.has(key)) continue;
        fromHere.add(key);
        clicked.add(href);
        try {
          await follow(from, reveal, href);
        } catch (e) {
          problems.push(`could not click ${href} on ${from} (${reveal}): ${String(e.message).split('\n')[0]}`);
          await goTo(from);
        }
      }
    }
    // The user menu's entries navigate without links (not Log out).
    for (const item of ['user-menu-profile', 'user-menu-own-audit', 'user-menu-my-data', 'user-menu-change-password', 'user-menu-2fa']) {
      if (clicked.has(item)) continue;
      // Loaded afresh: the user menu opened for the links above may still be closing.
      await page.goto(url(from));
      await settle(page);
      await page.locator(byTestId('user-menu')).click();
      const entry = page.locator(byTestId(item)).filter({ visible: true });
      if (!(await entry.waitFor({ timeout: 3_000 }).then(() => true, () => false))) {
        // The menu is open without it: not this role's entry (admin has no
        // profile). Tried on every page before, a reload and a wait each time:
        // a tenth of the admin's crawl.
        if (await page.locator(byTestId('user-menu-logout')).filter({ visible: true }).count()) clicked.add(item);
        continue;
      }
      const before = page.url();
      await entry.click().catch(() => undefined);
      // A re-render may close the menu under the pointer: then it is tried again from the next page.
      if (!(await page.waitForURL((u) => u.href !== before, { timeout: 5_000 }).then(() => true, () => false))) continue;
      clicked.add(item);
      await arrive(`${from} → user menu ${item}`);
    }
    if (menuOnly) return;
    // Tabs and segmented switches that are not links.
    await goTo(from);
    // Read by label once: on a busy machine the page loaded afresh for each
    // switch may not have drawn all of them yet (an index could then name none).
    const labels = (await page.locator('.ant-segmented-item:not(.ant-segmented-item-selected)').allTextContents()).map((t) => t.trim());
    for (const label of labels) {
      if (clicked.has(`${from}#seg:${label}`)) continue;
      await goTo(from);
      const item = page.locator('.ant-segmented-item:not(.ant-segmented-item-selected)').filter({ hasText: label }).first();
      // Not drawn within the wait: left for the second look rather than failing here.
      if (!(await item.waitFor({ timeout: 10_000 }).then(() => true, () => false))) continue;
      clicked.add(`${from}#seg:${label}`);
      await item.click();
      await page.waitForTimeout(300);
      if (`${new URL(page.url()).pathname}` !== new URL(url(from)).pathname) await arrive(`${from} → switch ${label}`);
    }
    // The conflict search in the header (admin, lawyer); on a phone it sits above the page.
    if (!clicked.has('conflict-search')) {
      const box = page.locator(`${byTestId('conflict-search')} input`).filter({ visible: true }).first();
      if (await box.count()) {
        clicked.add('conflict-search');
        await box.fill('Acme');
        await box.press('Enter');
        await page.waitForURL((u) => u.pathname.endsWith('/interest/'), { timeout: 5_000 }).catch(() => undefined);
        await arrive(`${from} → conflict search`);
      }
    }
  }

  let held = [];
  try {
    await signIn(page, email, prefix);
    if (lang !== 'sv') await chooseLanguage(page, lang);
    if (role === 'customerContact') held = (await apiCall(page, 'GET', '/permission/')).body?.permissions ?? [];
    // A role's crawlers share one account: its data is made once (by the
    // first), and the others start when it is there.
    if (share[0] === 0) {
      try {
        if (prepare) await prepare(page);
      } finally {
        prepared.resolve();
      }
    } else await prepared.promise;
    await arrive('sign-in');
    // Menu only: the dashboard's menus are the way in; nothing further is explored.
    if (menuOnly) await explore(queue.shift());
    else {
      // Shared between `share[1]` crawlers: each opens the dashboard, follows
      // its share of the dashboard's links (dealt in turn as they are first
      // seen, whoever sees them) and explores what those lead to.
      dealing = share[1] > 1;
      await explore(queue.shift());
      dealing = false;
      while (queue.length) await explore(queue.shift());
      // A second look. On a busy machine (the suite runs seven browsers on two
      // cores) a page can render a list or a card after the crawler read its
      // links, and each page is read once: a route then looks unlinked when it
      // is not. As a person would look again, every page visited (by every
      // crawler of the role, once all are done) is opened afresh once more for
      // links to routes nobody reached. A route no page links to still fails.
      await firstPassDone();
      withheld = withheldFrom(role, tables, held, prefix);
      const routeIds = tables.routesFor(role).map((r) => r.id);
      const allReached = () => routeIds.every((id) => together.has(id) || withheld.has(id) || NOT_LINKED_YET.has(id));
      if (share[0] === 0 && !allReached()) {
        lookingAgain = true;
        // The menus and dropdowns once more too, on the first page looked at again.
        for (const reveal of ONCE) onceReads.set(reveal, ONCE_READS - 1);
        for (const from of [...new Set(visited)]) {
          if (allReached()) break;
          if (process.env.CRAWL_DEBUG) console.log(`[crawl ${role} again] ${from}`);
          await page.goto(url(from));
          await explore(from);
          // What that opened (another kind of case's details) is looked at before the next page.
          while (queue.length && !allReached()) await explore(queue.shift());
        }
        lookingAgain = false;
        while (queue.length) await explore(queue.shift());
      }
    }
  } finally {
    await firstPassDone();
    await context.close();
  }
  if (!withheld.size) withheld = withheldFrom(role, tables, held, prefix);
  // Menu only: the routes the role's menu links to (the rest is reached through pages, crawled at desktop size).
  const menuRoutes = new Set();
  if (menuOnly) {
    const walk = (defs) => {
      for (const d of defs) {
        if (d.children) walk(d.children);
        else if (d.path) menuRoutes.add(routeIdOf(routes, new URL(d.path, url('/')).pathname));
      }
    };
    walk(tables.menuFor(role));
  }
  const table = tables.routesFor(role).map((r) => r.id).filter((id) => !menuOnly || menuRoutes.has(id));
  return { reached, problems, withheld, table };
}

/** A promise with its resolve (node 20 has no Promise.withResolvers). */
function resolvable() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Crawls one role with `parts` crawlers side by side, each its own browser
 * context, sharing the pages to explore; what they reached together counts.
 */
async function crawlRole(account, tables, viewport, { menuOnly = false, parts = 1, lang = 'sv' } = {}) {
  const deal = new Map();
  const together = new Set();
  const visited = [];
  const prepared = resolvable();
  // Every crawler's first pass ends before the second look (it looks for what none reached).
  let done = 0;
  let release;
  const allDone = new Promise((r) => (release = r));
  const firstPassDone = async () => {
    if (++done === parts) release();
    await allDone;
  };
  const results = await Promise.all(
    Array.from({ length: parts }, (_, i) => {
      let arrived = false;
      const once = () => (arrived ? allDone : ((arrived = true), firstPassDone()));
      return crawl(account, tables, viewport, { lang, menuOnly, share: [i, parts], deal, together, visited, firstPassDone: once, prepared });
    }),
  );
  const reached = new Map();
  for (const r of results) for (const [id, path] of r.reached) if (!reached.has(id)) reached.set(id, path);
  const { table, withheld } = results[0];
  return {
    reached,
    missing: table.filter((id) => !reached.has(id) && !NOT_LINKED_YET.has(id) && !withheld.has(id)),
    problems: results.flatMap((r) => r.problems),
    withheld: [...withheld].filter((id) => !reached.has(id)),
    notLinked: table.filter((id) => NOT_LINKED_YET.has(id) && !reached.has(id)),
  };
}

function report(label, result) {
  const lines = [...result.reached].map(([id, path]) => `  ${id.padEnd(24)} ${path}${KNOWN_NOT_BUILT.has(id) ? '   (known not built)' : ''}`);
  console.log(`\n${label}: reached ${result.reached.size} routes\n${lines.join('\n')}`);
  if (result.withheld?.length) console.log(`  not this user's (permissions, spec §5): ${result.withheld.join(', ')}`);
  if (result.notLinked.length) console.log(`  not linked yet (other issues): ${result.notLinked.join(', ')}`);
  if (result.missing.length) console.log(`  NOT REACHED: ${result.missing.join(', ')}`);
  for (const p of result.problems) console.log(`  PROBLEM: ${p}`);
}

// The roles crawl side by side (each its own browser context and account): the
// crawl mostly waits for pages, so this divides its time rather than adding load.
describe('every route of each role by clicking from its dashboard', { concurrency: true }, () => {
  // CRAWL_ROLES=lawyer,phone crawls only those (while debugging one role).
  const only = process.env.CRAWL_ROLES?.split(',');
  let tables;
  before(async () => {
    tables = await loadRoleTables();
  });

  for (const account of ACCOUNTS.filter((a) => !only || only.includes(a.role))) {
    // Admin has the most routes (about twice a lawyer's): two crawlers share
    // its pages, so it ends about when the other roles do.
    test(`${account.role}: every route reached by clicking`, { timeout: 900_000 }, async () => {
      const result = await crawlRole(account, tables, { width: 1366, height: 900 }, { parts: account.role === 'admin' ? 2 : 1 });
      report(account.role, result);
      assert.deepEqual(result.missing, [], `${account.role}: routes not reached by clicking`);
      assert.deepEqual(result.problems, [], `${account.role}: problems on reached pages`);
    });
  }

  // At phone size the menu opens from the header; the pages' own links are the
  // same as on a desktop (crawled above), so the phone crawl checks the menu.
  test('admin at phone size (390×844): every menu entry reached by clicking', { timeout: 600_000, skip: !!only && !only.includes('phone') }, async () => {
    const result = await crawlRole(ACCOUNTS[0], tables, { width: 390, height: 844 }, { menuOnly: true });
    report('admin (390×844)', result);
    assert.ok(result.reached.size >= 15, `admin at phone size: only ${result.reached.size} routes reached from the menu`);
    assert.deepEqual(result.missing, [], 'admin at phone size: routes not reached by clicking');
    assert.deepEqual(result.problems, [], 'admin at phone size: problems on reached pages');
  });

  // A customer on a phone reading English: every menu entry, each page checked for the page's
  // language (no Swedish interface words) and for actions within the screen's width. (The
  // customer's desktop crawl, beside this one, makes the data its pages need.)
  test('customer at phone size (390×844) in English: every menu entry reached, all in English, nothing off screen', { timeout: 600_000, skip: !!only && !only.includes('phone-en') }, async () => {
    const customer = { ...ACCOUNTS.find((a) => a.role === 'customer'), prepare: undefined };
    const result = await crawlRole(customer, tables, { width: 390, height: 844 }, { lang: 'en', menuOnly: true });
    report('customer (390×844, English)', result);
    assert.deepEqual(result.missing, [], 'customer at phone size: routes not reached by clicking');
    assert.deepEqual(result.problems, [], 'customer at phone size in English: problems on reached pages');
  });
});
