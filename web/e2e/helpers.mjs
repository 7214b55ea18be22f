// Shared set-up of the end-to-end tests: one headless system Chromium
// (playwright-core, no browser download) for the whole run, fresh isolated
// contexts per test, sign-in helpers, and the local outbox of sent mail.
//
//   BASE_URL=http://127.0.0.1:3000 node --test web/e2e/
import { after } from 'node:test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './browser.mjs';

export const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/+$/, '');
if (!BASE_URL) throw new Error('BASE_URL is required, e.g. BASE_URL=http://127.0.0.1:3000 node --test web/e2e/');

/** Password of every demo account. */
export const PASSWORD = 'Demo-2026-pass!';
export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
export const TIMEOUT = 30_000; // a limit for failing, not a speed check (CI: two busy cores)

export const byTestId = (id) => `[data-testid="${id}"]`;
export const url = (path) => `${BASE_URL}${path}`;
export const pathOf = (page) => {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
};

let browserPromise = null;

/** The run's browser, launched on first use and closed after the last test. */
export function getBrowser() {
  browserPromise ??= launchBrowser();
  return browserPromise;
}

after(async () => {
  if (browserPromise) await (await browserPromise).close();
});

/**
 * A fresh, isolated browser context (own localStorage and sessionStorage) with a desktop-size window.
 * It asks for reduced motion, as the crawl's do (the app then turns antd's motion off,
 * config/theme.ts): menus, dropdowns and dialogs open at once, and Chromium does not spend the
 * machine drawing their frames. `motion: true` (or E2E_MOTION=1 for every test) keeps the motion,
 * for the flows that cover the animated path (roles.e2e.mjs).
 */
export async function newPage({ motion = !!process.env.E2E_MOTION } = {}) {
  const browser = await getBrowser();
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    locale: 'sv-SE',
    reducedMotion: motion ? 'no-preference' : 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.setDefaultNavigationTimeout(TIMEOUT);
  return { context, page };
}

/**
 * Wait until no animation or CSS transition that ends is running on the page (spinners and
 * skeletons loop forever and are not waited for). With reduced motion there is mostly none: it
 * returns at once, where a fixed wait would wait its whole time; with motion on, it waits the
 * motion out, however long the busy machine takes to draw it.
 */
export function animationsDone(page) {
  return page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
}

/**
 * Run `fn` with a fresh page; on failure save a screenshot to
 * test-results/<name>-failure.png before rethrowing. Always closes the context.
 */
export async function withPage(name, fn, options) {
  const { context, page } = await newPage(options);
  try {
    await fn(page, context);
  } catch (err) {
    try {
      mkdirSync(RESULTS_DIR, { recursive: true });
      await page.screenshot({ path: join(RESULTS_DIR, `${name}-failure.png`), fullPage: true });
    } catch {
      /* the page may be gone */
    }
    throw err;
  } finally {
    await context.close();
  }
}

export async function fillLogin(page, email, password = PASSWORD) {
  await page.locator(byTestId('login-email')).fill(email);
  await page.locator(byTestId('login-password')).fill(password);
  await page.locator(byTestId('login-submit')).click();
}

/** Open /login and submit e-mail and password (does not wait for the result). */
export async function login(page, email, password = PASSWORD) {
  await page.goto(url('/login'));
  await page.locator(byTestId('login-form')).waitFor();
  await fillLogin(page, email, password);
}

/** Sign in and wait for the role's landing path (e.g. '/user/'). */
export async function signIn(page, email, prefix) {
  await login(page, email);
  await page.waitForURL((u) => u.pathname === prefix);
}

/**
 * Click an item of a header dropdown (components/plain/PlainMenuButton.tsx: a `.plain-menu-popup`) as a
 * person does: open it, wait until it stands settled under its trigger (placed, its opening motion done),
 * click the item. Clicked while the menu still moved in, Playwright found the page under the item, retried
 * with the item scrolled to the top of the page, and the menu realigned to its trigger mid-click: the press
 * on the item, the release elsewhere, no click, the menu still open. Should a click still be lost, this
 * clicks again, as a person would.
 */
export async function clickMenuItem(page, triggerSel, itemSel) {
  const item = page.locator(itemSel).first();
  for (let attempt = 1; ; attempt++) {
    // A click on the trigger can be lost the same way (the menu does not open): open it again.
    if (!(await item.isVisible())) await page.locator(triggerSel).first().click();
    const settled = await page
      .waitForFunction(
        ([t, i]) => {
          const el = document.querySelector(i);
          const popup = el?.closest('.plain-menu-popup');
          const trigger = document.querySelector(t);
          if (!el || !popup || !trigger) return false;
          // Hidden until placed; its opening motion (none with reduced motion) done.
          const style = getComputedStyle(popup);
          if (style.visibility !== 'visible' || popup.getAnimations().some((a) => a.playState === 'running')) return false;
          const r = el.getBoundingClientRect();
          return r.top >= trigger.getBoundingClientRect().bottom - 1 && r.bottom <= window.innerHeight;
        },
        [triggerSel, itemSel],
        { timeout: 5_000 },
      )
      .then(() => true, () => false);
    if (settled) {
      await item.click({ timeout: 5_000 }).catch(() => undefined);
      // A menu item's click closes its menu.
      if (await item.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false)) return;
    }
    if (attempt === 4) throw new Error(`${itemSel}: not chosen from its menu after four tries`);
  }
}

/**
 * Choose an option of an antd select as a person does: open it, wait until its list stands still,
 * click the option, and see the select show it. On a busy machine a click can land while the list
 * still moves in and choose nothing; then the form is sent without the value and refused, so the
 * choice is checked, and made again (an option already shown is never clicked twice: in a select of
 * several values that would remove it).
 */
export async function chooseOption(page, selectSel, option) {
  const select = page.locator(selectSel).first();
  // antd 6 shows a single value in .ant-select-content, each of several as .ant-select-selection-item.
  const shown = () => select.locator('.ant-select-selection-item, .ant-select-content-has-value').filter({ hasText: option }).first();
  const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  for (let attempt = 1; ; attempt++) {
    if (await shown().isVisible()) break;
    if (!(await list.isVisible())) await select.click();
    const item = list.locator('.ant-select-item-option').filter({ hasText: option }).first();
    await item.waitFor();
    await page
      .waitForFunction(() => {
        const d = document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
        return !!d && !/-(enter|appear)/.test(d.className);
      }, null, { timeout: 5_000 })
      .catch(() => undefined);
    await item.click({ timeout: 5_000 }).catch(() => undefined);
    if (await shown().waitFor({ timeout: 3_000 }).then(() => true, () => false)) break;
    if (attempt === 4) throw new Error(`${selectSel}: ${option} not chosen after four tries`);
  }
  // A select of several values stays open after a choice.
  if (await list.isVisible()) await page.keyboard.press('Escape');
}

/**
 * Click a link or button that opens another page, as a person does on a page still drawing its sections: when the
 * page does not change within a few seconds (a section above finished loading between Playwright's scroll and its
 * click, and the press landed beside the button), click again; up to three times.
 */
export async function clickToOpen(page, selector, predicate) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    // A slow answer to the previous click may have opened it meanwhile.
    if (attempt > 1 && predicate(new URL(page.url()))) return;
    await page.locator(selector).first().click();
    // The router changes the address at once; the page may take longer to draw.
    if (await page.waitForURL(predicate, { timeout: 5_000 }).then(() => true, () => false)) return;
  }
  await page.waitForURL(predicate);
}

/**
 * Submit a form and wait for the page it leads to; when it does not come, fail with what the page
 * says (the fields' errors and alerts) rather than a bare timeout.
 */
export async function submitAndWaitForURL(page, submitSel, predicate) {
  await page.locator(submitSel).click();
  try {
    await page.waitForURL(predicate);
  } catch (e) {
    const said = await page
      .locator('.ant-form-item-explain-error, .ant-alert-message, .ant-message-notice, .ant-notification-notice')
      .allTextContents()
      .catch(() => []);
    throw new Error(`${submitSel}: the next page did not open (${page.url()}); the page says: ${JSON.stringify(said)}\n${e.message}`);
  }
}

/** Choose the interface language from the header's switch. */
/**
 * Open a side-menu group and click one of its entries, as a person does: when the entry's page does not
 * open (the click landed while the group was still opening, or a re-render of the menu closed it on a busy
 * machine), open the group again if it closed and click the entry again.
 */
export async function clickSideMenuItem(page, groupTestId, itemTestId) {
  const item = page.locator(byTestId(itemTestId));
  for (let attempt = 1; ; attempt++) {
    if (!(await item.isVisible())) await page.locator(byTestId(groupTestId)).click();
    await item.waitFor();
    const before = page.url();
    await item.click();
    try {
      await page.waitForURL((u) => u.href !== before, { timeout: 5_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

export async function chooseLanguage(page, lang) {
  const [shown, title] = await page.evaluate(() => [document.documentElement.lang, document.title]);
  await clickMenuItem(page, byTestId('language-switch'), byTestId(`language-option-${lang}`));
  await page.locator(`${byTestId('language-switch')}[data-language="${lang}"]`).first().waitFor();
  if (shown === lang) return;
  // The switch shows the choice at once; the texts follow once the language's chunks are in
  // (i18n/index.ts applyLanguage): <html lang> first, then the texts and, after them, the page's
  // title. With the menu's motion off nothing else gives them that time: a page read at once was
  // still Swedish. (A route titled alike in both languages waits the short limit out.)
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  await page.waitForFunction((t) => document.title !== t, title, { timeout: 5_000 }).catch(() => undefined);
}

/** Call the API from the test itself, with a token or none (test set-up and checks only). */
export async function apiFetch(method, path, body, token) {
  const res = await fetch(url(`/api${path}`), {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Call the API with the page's stored token (test set-up and checks only). */
export function apiCall(page, method, path, body) {
  return page.evaluate(
    async ([m, p, b]) => {
      const root = JSON.parse(localStorage.getItem('root'));
      const headers = { Authorization: `Bearer ${root.auth.access_token}` };
      if (b !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(`/api${p}`, { method: m, headers, body: b === undefined ? undefined : JSON.stringify(b) });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    [method, path, body ?? undefined],
  );
}

/** Open the user menu (header) and pick an entry: user-menu-profile, -change-password, -2fa or -logout. */
export async function openUserMenuItem(page, testId) {
  await clickMenuItem(page, byTestId('user-menu'), byTestId(testId));
}

export async function logout(page) {
  // The dashboard may still re-render (its figures arrive after the page):
  // a menu it closed under the pointer is opened again, as a person would.
  for (let attempt = 0; ; attempt++) {
    await openUserMenuItem(page, 'user-menu-logout');
    const out = await page.waitForURL((u) => u.pathname === '/login', { timeout: 5_000 }).then(() => true, () => false);
    if (out) return;
    if (attempt === 2) throw new Error(`logout: still at ${page.url()} after three tries`);
    await page.keyboard.press('Escape');
  }
}

/** The stored session (localStorage `root`), or null. */
export function storedSession(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('root') ?? 'null'));
}

// ---- Local outbox: GET /local/outbox.json → [{to, subject, body, sent_at}], newest first.

const sentTo = (mail, email) => String(mail?.to ?? '').toLowerCase().includes(email.toLowerCase());
/** A "something happened" mail (it carries an unsubscribe link): never the code or link a test waits for. */
const eventMail = (mail) => String(mail?.body ?? '').includes('/unsubscribe?token=');
const sameMail = (a, b) => !!a && !!b && a.sent_at === b.sent_at && a.subject === b.subject && a.body === b.body;

export async function outbox() {
  const res = await fetch(url('/local/outbox.json'), { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET /local/outbox.json: HTTP ${res.status}`);
  const mails = await res.json();
  if (!Array.isArray(mails)) throw new Error('GET /local/outbox.json: not an array');
  return mails;
}

/** The newest mail to `email`, or null. Take it before an action, to tell the action's mail apart. */
export async function newestMailTo(email) {
  return (await outbox()).find((m) => sentTo(m, email) && !eventMail(m)) ?? null;
}

/** Wait until the newest mail to `email` is another one than `before` (from newestMailTo), and return it. */
export async function waitForNewMail(email, before, timeoutMs = TIMEOUT) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const newest = await newestMailTo(email);
    if (newest && !sameMail(newest, before)) return newest;
    if (Date.now() > end) throw new Error(`no new mail to ${email} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A new contact's first password, through its mail (`before`: newestMailTo before the contact was saved):
 * the set-password link opened, `password` typed twice and sent, its confirmation shown.
 */
export async function setPasswordFromMail(page, email, before, password) {
  const mail = await waitForNewMail(email, before);
  const m = /(http\S+\/recovery\/account\?token=[0-9a-f]+)/.exec(mail.body ?? '');
  if (!m) throw new Error(`the mail holds no set-password link: ${mail.body}`);
  await page.goto(onBaseUrl(m[1]));
  await page.locator(byTestId('confirm-form')).waitFor();
  await page.locator(byTestId('confirm-password')).fill(password);
  await page.locator(byTestId('confirm-password2')).fill(password);
  await page.locator(byTestId('confirm-submit')).click();
  await page.locator(byTestId('confirm-done')).waitFor();
}

/** Submit a two-factor code on /authentication. */
export async function enterCode(page, code) {
  await page.locator(byTestId('twofa-code')).fill(code);
  await page.locator(byTestId('twofa-submit')).click();
}

/** Open Two-factor authentication from the user menu of the area at `prefix`; returns the status element. */
export async function openTwoFactorPage(page, prefix) {
  await openUserMenuItem(page, 'user-menu-2fa');
  await page.waitForURL((u) => u.pathname === `${prefix}update-2fa/`);
  const status = page.locator(byTestId('twofa-status'));
  await status.waitFor();
  return status;
}

/** The 6-digit code of a two-factor mail. */
export function codeFrom(mail) {
  const m = /\b(\d{6})\b/.exec(mail?.body ?? '');
  if (!m) throw new Error(`no 6-digit code in the mail: ${JSON.stringify(mail)}`);
  return m[1];
}

/** The path and query of a link in a mail, on BASE_URL (the mail's own origin is replaced). */
export function onBaseUrl(link) {
  const u = new URL(link);
  return url(`${u.pathname}${u.search}`);
}
