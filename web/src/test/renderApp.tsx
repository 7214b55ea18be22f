/**
 * Render the app's route table in jsdom for page tests (no testing library):
 * a memory router inside antd's App, plus small helpers that find elements by
 * data-testid, type, click and wait. Mock aws-amplify before importing.
 */
import { App as AntApp } from 'antd';
import { StyleProvider } from '@ant-design/cssinjs';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateOptions } from 'react-router';
import * as session from '../store/session';
import { setPendingTwoFactor, type PendingTwoFactor } from '../store/twoFactor';
import { fake } from './amplifyFake';
import { AppRoutes } from '../app/router';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The least time a wait allows before it fails (see `waitFor`). */
export const WAIT_FLOOR_MS = 30_000;
/**
 * The least time a file's first wait allows: until one has succeeded, the page's modules (antd, the route's
 * lazy chunks) are being transformed and loaded for the first time in this worker, which beside other heavy
 * work (a load average of 13) took over 30 s, and a correct page test failed waiting for its first element.
 */
export const FIRST_WAIT_FLOOR_MS = 120_000;
/** Whether a wait of this file has succeeded (its modules are loaded). */
let warm = false;

/** A mounted tree and helpers that find elements by data-testid, type, click and wait. */
export interface Mounted {
  container: HTMLDivElement;
  $: (testId: string) => HTMLElement | null;
  waitFor: <T>(fn: () => T | null | undefined | false, what: string, ms?: number) => Promise<T>;
  type: (testId: string, value: string) => Promise<void>;
  click: (testId: string) => Promise<void>;
  /** Unmount and remove the container (again: nothing). */
  unmount: () => Promise<void>;
}

/** The app's route table rendered at a path. */
export interface Rendered extends Mounted {
  /** Where the router is now. */
  location: () => Location;
  path: () => string;
  /** Navigate as a link would. */
  navigate: (to: string, opts?: NavigateOptions) => Promise<void>;
}

/**
 * Mount `element` inside antd's App in a fresh container. The helpers search
 * `scope`: the container (a routed page), or the whole document (a component
 * whose menus and dialogs open in portals outside the container).
 */
async function mount(element: ReactNode, scope: 'container' | 'document', where: () => string): Promise<Mounted> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root: Root = createRoot(container);
  // antd's styles are generated but not written into the page (cssinjs' server mode): jsdom parsed every rule
  // of every component's sheet and walked them all on each style lookup, about 40% of the page tests' CPU. No
  // test reads a style from a sheet (the widths they check are inline); the browser tests draw the real ones.
  await act(async () => {
    root.render(
      <StyleProvider mock="server">
        <AntApp>{element}</AntApp>
      </StyleProvider>,
    );
  });

  const searchRoot = () => (scope === 'container' ? container : document);
  const $ = (testId: string) => searchRoot().querySelector<HTMLElement>(`[data-testid="${testId}"]`);

  // A wait is a limit for failing, not a speed check: on a machine busy with other work (CI runs these beside
  // the Rust tests on two cores) a page took over 10 s to show, and a tight limit failed a correct test. Every
  // wait gets at least WAIT_FLOOR_MS; a page that never shows still fails, only later.
  async function waitFor<T>(fn: () => T | null | undefined | false, what: string, ms = WAIT_FLOOR_MS): Promise<T> {
    const end = Date.now() + Math.max(ms, warm ? WAIT_FLOOR_MS : FIRST_WAIT_FLOOR_MS);
    for (;;) {
      const v = fn();
      if (v) {
        warm = true;
        return v;
      }
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; at ${where()}: ${searchRoot().textContent}`);
      await act(async () => {
        await new Promise((r) => setTimeout(r, 20));
      });
    }
  }

  async function type(testId: string, value: string) {
    const input = (await waitFor(() => $(testId), testId)) as HTMLInputElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    await act(async () => {
      setter.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }

  async function click(testId: string) {
    const el = await waitFor(() => $(testId), testId);
    await act(async () => {
      el.click();
    });
  }

  let mounted = true;
  async function unmount() {
    if (!mounted) return;
    mounted = false;
    await act(async () => root.unmount());
    container.remove();
  }

  return { container, $, waitFor, type, click, unmount };
}

export async function renderApp(path: string): Promise<Rendered> {
  // The router's location and navigate, read by a probe inside it.
  const probe: { location?: Location; navigate?: ReturnType<typeof useNavigate> } = {};
  function Probe() {
    probe.location = useLocation();
    probe.navigate = useNavigate();
    return null;
  }
  const location = () => probe.location!;
  const pathNow = () => location().pathname;
  // As App does (BrowserRouter there); Root registers the navigate of navigation.ts.
  const mounted = await mount(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <Probe />
    </MemoryRouter>,
    'container',
    pathNow,
  );
  return {
    ...mounted,
    location,
    path: pathNow,
    async navigate(to, opts) {
      await act(async () => {
        await probe.navigate!(to, opts);
      });
    },
  };
}

/** A component outside the router (its dialogs and menus are searched document-wide). */
export function renderComponent(element: ReactNode): Promise<Mounted> {
  return mount(element, 'document', () => 'component');
}

/** Standing replies of the calls every signed-in page makes in passing (a test may replace them). */
export const COLLABORATION_DEFAULTS: Record<string, unknown> = {
  'GET /notification/seen/count/': { count: 0 },
  'GET /notification/': { results: [], more: false },
  'POST /notification/seen/update/': null,
  'GET /message/': { messages: [], older: null, can_write: false, cannot_write_because: null },
  'GET /rating/case/': null,
  'GET /rating/': [],
  'GET /case/lawyer/note/': [],
};

/** A fresh fake API, empty storage and a signed-out session in English: the start of every page test. */
export function resetClientState(): void {
  fake.reset();
  // The header polls its dropdown badges and the case page loads its conversation,
  // rating and notes: quiet standing replies, so they take no reply a test queued.
  for (const [route, body] of Object.entries(COLLABORATION_DEFAULTS)) fake.routes.set(route, () => ({ status: 200, body }));
  localStorage.clear();
  sessionStorage.clear();
  session.reloadState();
  session.setLanguage('en');
}

/** Tokens of a signed-in test session. */
export const TEST_AUTH = { access_token: 'a1', refresh_token: 'r1', expires_in: 900, token_type: 'Bearer' };

type Reply = Parameters<typeof fake.routes.set>[1];

/** Sign `user` in: the stored session and the start-up profile answer (null: signed out). */
export function signIn(user: object | null): void {
  if (!user) return;
  session.setState({ auth: TEST_AUTH, user: user as never });
  fake.routes.set('GET /profile/', () => ({ status: 200, body: user }));
}

/**
 * The shared frame of a page-test file: English, a clean client before each
 * test (and `warning` reset), the page unmounted after it. `render` signs
 * `user` in (stored session plus the start-up profile answer), adds the
 * standing replies given (they may replace the profile answer), renders
 * `path` and routes §8 warnings to `warning`; `mount` does the same for a
 * component outside the router. Either replaces what the test rendered before.
 */
export function pageTests(opts: { warning?: { mockReset: () => void } & ((...args: never[]) => unknown) } = {}) {
  let ui: Mounted | null = null;
  beforeAll(async () => {
    const { default: i18n, loadAreaTexts, loadPageTexts } = await import('../i18n');
    await i18n.changeLanguage('en');
    // As in an area (the router loads the areas' texts with it, a page the pages'): `mount` renders components outside one.
    await Promise.all([loadAreaTexts(), loadPageTexts()]);
  });
  beforeEach(() => {
    resetClientState();
    opts.warning?.mockReset();
  });
  afterEach(async () => {
    await ui?.unmount();
    ui = null;
  });
  async function start<T extends Mounted>(user: object | null, replies: Record<string, Reply>, show: () => Promise<T>): Promise<T> {
    await ui?.unmount();
    signIn(user);
    // Calls every customer page or the registration form makes on its own (the texts to
    // accept after sign-in, the terms and privacy versions): answered unless the test says otherwise.
    fake.routes.set('GET /legal/pending/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /public/terms/', () => ({ status: 200, body: null }));
    fake.routes.set('GET /public/privacy/', () => ({ status: 200, body: null }));
    for (const [route, reply] of Object.entries(replies)) fake.routes.set(route, reply);
    const shown = await show();
    ui = shown;
    if (opts.warning) {
      const { registerErrorNotification } = await import('../layout/errorNotification');
      registerErrorNotification({ warning: opts.warning as never });
    }
    return shown;
  }
  return {
    render(path: string, user: object | null, replies: Record<string, Reply> = {}): Promise<Rendered> {
      return start(user, replies, () => renderApp(path));
    },
    mount(element: ReactNode, user: object | null, replies: Record<string, Reply> = {}): Promise<Mounted> {
      return start(user, replies, () => renderComponent(element));
    },
    /**
     * The code screen of a sign-in waiting for its code (`pending`), signed out, with `code` typed and sent and
     * the server refusing it with `message` (a 400): what the page does next is the test's.
     */
    async submitRefusedCode(pending: PendingTwoFactor, message: string, code: string): Promise<Rendered> {
      setPendingTwoFactor(pending);
      const r = await start(null, {}, () => renderApp('/authentication'));
      fake.replies.push(() => ({ status: 400, body: { status: 400, message, errors: {} } }));
      await r.type('twofa-code', code);
      await r.click('twofa-submit');
      return r;
    },
    /** What the test rendered last (null after it is unmounted). */
    get ui(): Mounted | null {
      return ui;
    },
  };
}
