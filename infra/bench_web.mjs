// Web benchmark (not a test; run by infra/bench-web.sh): opens each budgeted
// page cold (a new browser context: empty cache, no connections) in headless
// Chromium on a throttled network and CPU, as a mid-range phone on a slow
// connection, and prints per page: JavaScript and CSS bytes as transferred
// (gzip or brotli), request count, first contentful paint, largest
// contentful paint, cumulative layout shift and the time until the page's
// form or content is usable (for the login page: the login form accepts input).
//
// Usage: node infra/bench_web.mjs <base url>   (RUNS=n repeats each page, median shown;
// ONLY=<text>: the pages whose name has it; LIST=1: each page's JS and CSS files loaded when usable)
// The browser as the browser tests start it (its features no page uses left out: without, each context also drew
// the address bar's two popups in renderers of their own).
import { launchBrowser } from '../web/e2e/browser.mjs';

const BASE = process.argv[2];
const RUNS = Number(process.env.RUNS ?? 3);
const ONLY = process.env.ONLY ?? '';
const LIST = process.env.LIST === '1';
const PASSWORD = 'Demo-2026-pass!';
// 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip, CPU 4x slower.
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6 * 1000 * 1000) / 8, uploadThroughput: (750 * 1000) / 8 };
// CPU_SLOWDOWN=1 (quick mode's): not slowed. Chromium's CPU throttling keeps the renderer busy, not idle.
const CPU_SLOWDOWN = Number(process.env.CPU_SLOWDOWN ?? 4);
/** Cumulative layout shift a measured page may have, so content does not jump while it loads. */
const CLS_TARGET = 0.05;

/** Signs in through the API and returns what the app keeps in localStorage `root`. */
async function session(email) {
  const post = (path, body, token) =>
    fetch(`${BASE}/api${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then((r) => r.json());
  const auth = await post('/token/', { email, password: PASSWORD });
  if (!auth.access_token) throw new Error(`signing in ${email} failed: ${JSON.stringify(auth)}`);
  const user = await post('/profile/', null, auth.access_token);
  return { user, auth, utilities: { initialRoute: null, language: 'sv' }, services: { token: null }, verified: null, permission: [] };
}

const PAGES = [
  { name: 'landing', path: '/', ready: '[data-testid="landing-login"]' },
  { name: 'login', path: '/login', ready: '[data-testid="login-email"]:not([disabled])', interactive: true },
  { name: 'registration', path: '/registration', ready: '[data-testid="registration-form"] .plain-input > input' },
  {
    name: 'two-factor',
    path: '/authentication',
    ready: '[data-testid="twofa-code"]',
    session: { two_factor: JSON.stringify({ token: 'bench-pending', method: 'email' }) },
  },
  { name: 'admin dashboard', path: '/admin/', ready: '[data-testid="dashboard-page"]', account: 'admin@example.com' },
  { name: 'lawyer dashboard', path: '/lawyer/', ready: '[data-testid="dashboard-page"]', account: 'lawyer@example.com' },
  { name: 'sales dashboard', path: '/sales/', ready: '[data-testid="dashboard-page"]', account: 'sales@example.com' },
  { name: 'customer dashboard', path: '/user/', ready: '[data-testid="dashboard-page"]', account: 'customer@example.com' },
  { name: 'contact dashboard', path: '/customer_contact/', ready: '[data-testid="dashboard-page"]', account: 'contact@example.com' },
];

async function measure(browser, page, root) {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.6, isMobile: true, hasTouch: true });
  if (root || page.session) {
    await context.addInitScript(
      ([r, s]) => {
        if (r) localStorage.setItem('root', r);
        for (const [k, v] of Object.entries(s ?? {})) sessionStorage.setItem(k, v);
      },
      [root ? JSON.stringify(root) : null, page.session ?? null],
    );
  }
  await context.addInitScript(() => {
    window.__cls = 0;
    window.__lcp = 0;
    new PerformanceObserver((l) => l.getEntries().forEach((e) => !e.hadRecentInput && (window.__cls += e.value))).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => (window.__lcp = Math.max(window.__lcp, e.startTime)))).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const types = new Map();
  const urls = new Map();
  const files = [];
  const bytes = { js: 0, css: 0, other: 0 };
  let requests = 0;
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    urls.set(e.requestId, e.response.url);
  });
  cdp.on('Network.loadingFinished', (e) => {
    requests += 1;
    const t = types.get(e.requestId);
    const kind = t === 'Script' ? 'js' : t === 'Stylesheet' ? 'css' : 'other';
    bytes[kind] += e.encodedDataLength;
    if (kind !== 'other') files.push([urls.get(e.requestId), e.encodedDataLength]);
  });
  await tab.goto(`${BASE}${page.path}`, { waitUntil: 'commit' });
  await tab.locator(page.ready).first().waitFor({ state: 'visible', timeout: 60_000 });
  if (page.interactive) {
    // interactive: the field takes typed input
    await tab.locator(page.ready).first().fill('a');
  }
  const visible = await tab.evaluate(() => performance.now());
  // What the page had loaded when it became usable (the budgets' measure); the columns before it count
  // everything until the network is idle (the language menu, Amplify and the like load after).
  const atUsable = { jsUsable: bytes.js + bytes.css, requestsUsable: requests };
  const filesAtUsable = [...files];
  await tab.waitForLoadState('networkidle', { timeout: 120_000 }).catch(() => undefined);
  await tab.waitForTimeout(500);
  const paint = await tab.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    lcp: window.__lcp,
    cls: window.__cls,
  }));
  if (!tab.url().includes(page.path === '/' ? BASE : page.path)) throw new Error(`${page.name}: ended on ${tab.url()}`);
  await context.close();
  // Usable once it is both there (laid out) and painted.
  return { ...bytes, requests, ...atUsable, filesAtUsable, usable: Math.max(visible, paint.fcp), ...paint };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const browser = await launchBrowser();
try {
  const sessions = {};
  for (const p of PAGES) if (p.account && p.name.includes(ONLY)) sessions[p.account] = await session(p.account);
  console.log(`Cold page loads at ${BASE}: 1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT, ${CPU_SLOWDOWN === 1 ? 'CPU not slowed' : `CPU ${CPU_SLOWDOWN}x slower`}, 412x915 phone; median of ${RUNS}`);
  console.log('page                 JS KiB  CSS KiB  requests  JS+CSS KiB at usable  requests at usable    FCP ms    LCP ms   usable ms    CLS');
  for (const page of PAGES.filter((p) => p.name.includes(ONLY))) {
    const runs = [];
    try {
      for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, page, page.account ? sessions[page.account] : null));
    } catch (e) {
      console.log(`${page.name.padEnd(20)} failed: ${String(e).split('\n')[0]}`);
      process.exitCode = 1;
      continue;
    }
    const m = (k) => median(runs.map((r) => r[k]));
    console.log(
      `${page.name.padEnd(20)} ${(m('js') / 1024).toFixed(1).padStart(6)} ${(m('css') / 1024).toFixed(1).padStart(8)} ${String(m('requests')).padStart(9)} ${(m('jsUsable') / 1024).toFixed(1).padStart(21)} ${String(m('requestsUsable')).padStart(19)} ${m('fcp').toFixed(0).padStart(9)} ${m('lcp').toFixed(0).padStart(9)} ${m('usable').toFixed(0).padStart(11)} ${m('cls').toFixed(3).padStart(6)}${m('cls') > CLS_TARGET ? ' !' : ''}`,
    );
    if (LIST) {
      for (const [url, n] of [...runs[0].filesAtUsable].sort((a, b) => b[1] - a[1])) console.log(`    ${(n / 1024).toFixed(1).padStart(6)} KiB  ${new URL(url).pathname}`);
    }
  }
  console.log("usable: the page's form or content is shown and painted (login: the e-mail field took typed input).");
  console.log(`CLS: layout shift until the network is idle, target ≤ ${CLS_TARGET} ('!' marks a page above it).`);
} finally {
  await browser.close();
}
