// The system Chromium as the browser tests and the web benchmark start it
// (playwright-core, /usr/bin/chromium, no browser download), with the browser
// features no page uses left out.
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
// Browser features no test uses, whose cost comes with every context: each context opens a window, and Chromium
// 156 loads its address bar's two suggestion popups in it (chrome://omnibox-popup.top-chrome/, a renderer process
// of their own). Six contexts that each sign in took 8.4 CPU-s of Chromium with them, 5.2 without.
const FEATURES_NOT_USED = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
const DISABLE_FEATURES = '--disable-features=';

/**
 * The --disable-features switches of the browser this process started last (Playwright starts it as a child of
 * this process), and its process id; `not` is an earlier browser's, already closed.
 */
function disabledFeatureSwitches(not) {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d) && d !== not)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes('--remote-debugging-pipe')) return { pid, switches: args.filter((a) => a.startsWith(DISABLE_FEATURES)) };
    } catch {
      /* the process ended meanwhile */
    }
  }
  throw new Error("the browser Playwright started was not found among this process's children");
}

/**
 * Chromium keeps only the last --disable-features switch it is given, and Playwright passes one of its own: the
 * features above are added to Playwright's list (read from the command line of a first browser, whatever this
 * version of Playwright puts in it), and its switch is replaced by the merged one.
 */
export async function launchBrowser() {
  const first = await chromium.launch(LAUNCH);
  let pid, theirs;
  try {
    ({ pid, switches: theirs } = disabledFeatureSwitches());
  } finally {
    await first.close();
  }
  if (theirs.length > 1) throw new Error(`Playwright passed ${theirs.length} ${DISABLE_FEATURES} switches, Chromium would keep one`);
  const features = [...new Set([...(theirs[0]?.slice(DISABLE_FEATURES.length).split(',').filter(Boolean) ?? []), ...FEATURES_NOT_USED])];
  const browser = await chromium.launch({ ...LAUNCH, ignoreDefaultArgs: theirs, args: [...LAUNCH.args, DISABLE_FEATURES + features.join(',')] });
  const given = disabledFeatureSwitches(pid).switches;
  if (given.length !== 1 || given[0] !== DISABLE_FEATURES + features.join(',')) {
    await browser.close();
    throw new Error(`the browser was started with ${JSON.stringify(given)}, not the merged ${DISABLE_FEATURES} switch`);
  }
  return browser;
}
