/**
 * Render the app's route table in jsdom for page tests (no testing library):
 * a memory router inside antd's App, plus small helpers that find elements by
 * data-testid, type, click and wait. Mock aws-amplify before importing.
 */
import { App as AntApp } from 'antd';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setNavigate } from '../navigation';
import * as session from '../store/session';
import { fake } from './amplifyFake';
import { routes } from '../app/router';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Rendered {
  router: ReturnType<typeof createMemoryRouter>;
  container: HTMLDivElement;
  $: (testId: string) => HTMLElement | null;
  waitFor: <T>(fn: () => T | null | undefined | false, what: string, ms?: number) => Promise<T>;
  type: (testId: string, value: string) => Promise<void>;
  click: (testId: string) => Promise<void>;
  path: () => string;
  unmount: () => Promise<void>;
}

export async function renderApp(path: string): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root: Root = createRoot(container);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // As createAppRouter does: navigation from outside React (API client, sign-out) uses this router.
  setNavigate((to, opts) => void router.navigate(to, opts));
  await act(async () => {
    root.render(
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>,
    );
  });

  const $ = (testId: string) => container.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const pathNow = () => router.state.location.pathname;

  async function waitFor<T>(fn: () => T | null | undefined | false, what: string, ms = 10_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = fn();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; at ${pathNow()}: ${container.textContent}`);
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

  async function unmount() {
    setNavigate(null);
    await act(async () => root.unmount());
    container.remove();
  }

  return { router, container, $, waitFor, type, click, path: pathNow, unmount };
}

/** A fresh fake API, empty storage and a signed-out session in English: the start of every page test. */
export function resetClientState(): void {
  fake.reset();
  localStorage.clear();
  sessionStorage.clear();
  session.reloadState();
  session.setLanguage('en');
}

/** Tokens of a signed-in test session. */
export const TEST_AUTH = { access_token: 'a1', refresh_token: 'r1', expires_in: 900, token_type: 'Bearer' };

type Reply = Parameters<typeof fake.routes.set>[1];

/**
 * The shared frame of a page-test file: English, a clean client before each
 * test (and `warning` reset), the page unmounted after it. `render` signs
 * `user` in (stored session plus the start-up profile answer), adds the
 * standing replies given, renders `path` and routes §8 warnings to `warning`.
 */
export function pageTests(opts: { warning?: { mockReset: () => void } & ((...args: never[]) => unknown) } = {}) {
  let ui: Rendered | null = null;
  beforeAll(async () => {
    const { default: i18n } = await import('../i18n');
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    resetClientState();
    opts.warning?.mockReset();
  });
  afterEach(async () => {
    await ui?.unmount();
    ui = null;
  });
  return {
    async render(path: string, user: object | null, replies: Record<string, Reply> = {}): Promise<Rendered> {
      if (user) {
        session.setState({ auth: TEST_AUTH, user: user as never });
        fake.routes.set('GET /profile/', () => ({ status: 200, body: user }));
      }
      for (const [route, reply] of Object.entries(replies)) fake.routes.set(route, reply);
      ui = await renderApp(path);
      if (opts.warning) {
        const { registerErrorNotification } = await import('../layout/errorNotification');
        registerErrorNotification({ warning: opts.warning as never });
      }
      return ui;
    },
    get ui(): Rendered | null {
      return ui;
    },
  };
}
