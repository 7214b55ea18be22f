// Lighthouse figures for the web benchmark (not a test; run by infra/bench-web.sh after bench_web.mjs):
// each page through Lighthouse 12's default mobile profile (simulated slow 4G, 4x CPU slowdown, Moto G
// Power screen), performance only, in Debian's Chromium. Prints per page the median of RUNS runs of the
// performance score, FCP, LCP, total blocking time, speed index and the bytes Lighthouse saw transferred.
//
// Usage: node infra/bench_lighthouse.mjs <base url>   (RUNS=n, default 3; ONLY=<text>: pages whose name
// has it; LIGHTHOUSE_ALL=1: the dashboards too, each signed in, not only the public pages)
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { LAUNCH } from '../web/e2e/browser.mjs';

const require = createRequire(fileURLToPath(new URL('./lighthouse/package.json', import.meta.url)));
const { default: lighthouse } = await import(require.resolve('lighthouse'));
const puppeteer = require('puppeteer-core');

const BASE = process.argv[2];
const RUNS = Number(process.env.RUNS ?? 3);
const ONLY = process.env.ONLY ?? '';
const ALL = process.env.LIGHTHOUSE_ALL === '1';
const PASSWORD = 'Demo-2026-pass!';
/** The goals for the public forms (login, two-factor, registration). */
const GOAL = { score: 95, lcp: 2500 };

async function session(email) {
  const call = (path, body, token) =>
    fetch(`${BASE}/api${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then((r) => r.json());
  const auth = await call('/token/', { email, password: PASSWORD });
  if (!auth.access_token) throw new Error(`signing in ${email} failed: ${JSON.stringify(auth)}`);
  const user = await call('/profile/', null, auth.access_token);
  return { user, auth, utilities: { initialRoute: null, language: 'sv' }, services: { token: null }, verified: null, permission: [] };
}

const PAGES = [
  { name: 'landing', path: '/' },
  { name: 'login', path: '/login', goal: true },
  { name: 'registration', path: '/registration', goal: true },
  // The two-factor step needs the pending sign-in the login page leaves in sessionStorage.
  { name: 'two-factor', path: '/authentication', goal: true, session: { two_factor: JSON.stringify({ token: 'bench-pending', method: 'email' }) } },
  ...(ALL
    ? [
        { name: 'admin dashboard', path: '/admin/', account: 'admin@example.com' },
        { name: 'lawyer dashboard', path: '/lawyer/', account: 'lawyer@example.com' },
        { name: 'sales dashboard', path: '/sales/', account: 'sales@example.com' },
        { name: 'customer dashboard', path: '/user/', account: 'customer@example.com' },
        { name: 'contact dashboard', path: '/customer_contact/', account: 'contact@example.com' },
      ]
    : []),
].filter((p) => p.name.includes(ONLY));

/** One cold run: a new browser (empty cache), the page's storage set before its scripts run. */
async function run(page, root) {
  const browser = await puppeteer.launch({ executablePath: LAUNCH.executablePath, headless: true, args: LAUNCH.args });
  try {
    const tab = await browser.newPage();
    if (root || page.session) {
      await tab.evaluateOnNewDocument(
        (r, s) => {
          if (r) localStorage.setItem('root', r);
          for (const [k, v] of Object.entries(s ?? {})) sessionStorage.setItem(k, v);
        },
        root ? JSON.stringify(root) : null,
        page.session ?? null,
      );
    }
    // Storage is kept (it was just set); the browser is new, so its cache is empty anyway.
    const result = await lighthouse(`${BASE}${page.path}`, { output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true }, undefined, tab);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
    const finalUrl = lhr.finalDisplayedUrl ?? lhr.finalUrl ?? '';
    if (!finalUrl.includes(page.path === '/' ? BASE : page.path)) throw new Error(`${page.name}: ended on ${finalUrl}`);
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      si: audit('speed-index'),
      cls: audit('cumulative-layout-shift'),
      kib: audit('total-byte-weight') / 1024,
    };
  } finally {
    await browser.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const sessions = {};
for (const p of PAGES) if (p.account) sessions[p.account] = await session(p.account);
console.log(`\nLighthouse 12, default mobile profile (simulated: 150 ms RTT, 1.6 Mbit/s, CPU 4x), performance only, at ${BASE}; median of ${RUNS}`);
console.log('page                 score    FCP ms    LCP ms    TBT ms     SI ms    CLS   all bytes KiB');
for (const page of PAGES) {
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i++) runs.push(await run(page, page.account ? sessions[page.account] : null));
  } catch (e) {
    console.log(`${page.name.padEnd(20)} failed: ${String(e).split('\n')[0]}`);
    process.exitCode = 1;
    continue;
  }
  const m = (k) => median(runs.map((r) => r[k]));
  const miss = page.goal && (m('score') < GOAL.score || m('lcp') > GOAL.lcp) ? '  ! goal' : '';
  console.log(
    `${page.name.padEnd(20)} ${String(m('score')).padStart(5)} ${m('fcp').toFixed(0).padStart(9)} ${m('lcp').toFixed(0).padStart(9)} ${m('tbt').toFixed(0).padStart(9)} ${m('si').toFixed(0).padStart(9)} ${m('cls').toFixed(3).padStart(6)} ${m('kib').toFixed(1).padStart(15)}   (scores ${runs.map((r) => r.score).join(', ')})${miss}`,
  );
}
console.log(`goal for login, registration and two-factor: score ≥ ${GOAL.score}, LCP ≤ ${GOAL.lcp} ms ('! goal' marks a miss).`);
