import { afterAll, afterEach, vi } from 'vitest';
// Installed first: it records every React root the file creates (why: roots.ts).
import { inActWhereSet, unmountRoots } from './roots';
// jsdom lacks matchMedia (used by antd's responsive helpers).
if (typeof window !== 'undefined' && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    // A test may stub it (vi.stubGlobal), which redefines it.
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// jsdom lacks ResizeObserver (used by antd's layout, menu and overflow helpers).
if (typeof window !== 'undefined' && !('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// jsdom computes no pseudo-element styles and says so on the console for every call that names one (antd
// measures the scrollbar with '::-webkit-scrollbar' when a dialog opens or closes). The answer is the element's
// own style either way; asked without the pseudo-element it is the same answer without the console line, which,
// when a dialog's close motion ends during a file's teardown, reached a worker already closing and failed the run
// ("Closing rpc while onUserConsoleLog was pending") though every test passed.
if (typeof window !== 'undefined') {
  const computedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element) => computedStyle(element);
}

// antd's global notification, message and confirm dialog (layout/notifier.tsx) draw in a root
// of their own that the pages' unmount does not reach, and close themselves on
// timers (a 6 s message, a 4.5 s notification). A timer firing after the
// file's environment is torn down meets no `window` and fails the run with an
// unhandled "window is not defined". Mocked as itself, only to learn whether
// a file loaded it: then its notices are destroyed before the teardown.
// Each call that shows a notice is noted: antd draws the notice a moment later, so a notice shown at a test's
// end may not be in the document yet when the test's hooks look for it.
let notifier: typeof import('../layout/notifier') | null = null;
let noticeShown = false;
vi.mock('../layout/notifier', async (importOriginal) => {
  notifier = await importOriginal<typeof import('../layout/notifier')>();
  // A notice's close timer ticks on animation frames, each a React update outside act: in tests notices stay
  // until the test that showed them ends (then closed inside act, below), never closing on their own.
  notifier.default.config({ duration: 0 });
  notifier.message.config({ duration: 0 });
  const shows: [object, string[]][] = [
    [notifier.default, ['open', 'error', 'warning', 'info', 'success']],
    [notifier.message, ['open', 'error', 'warning', 'info', 'success', 'loading']],
    [notifier.modal, ['confirm', 'error', 'warning', 'info', 'success']],
  ];
  for (const [api, names] of shows) {
    const methods = api as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const show = methods[name];
      methods[name] = (...args: unknown[]) => {
        noticeShown = true;
        return show(...args);
      };
    }
  }
  return notifier;
});

// Closing the notices commits in React too: inside act (where the file set up act's environment; elsewhere act
// itself would warn), so that no "not wrapped in act" warning is written outside a test — a console line written
// while the worker closes fails the run ("Closing rpc while onUserConsoleLog was pending") though every test passed.
async function closeNotices(): Promise<void> {
  const close = async () => {
    if (notifier) {
      const { default: notification, message, modal } = notifier;
      notification.destroy();
      message.destroy();
      modal.destroyAll();
    }
    // The notices' leave motion ends on a timer (rc-motion's deadline, 500 ms) and commits once more.
    await new Promise((resolve) => setTimeout(resolve, notifier ? 700 : 100));
  };
  await inActWhereSet(close);
}

// A notice a test left open (or asked for just before its end) is drawn or closes on its own timer during the
// next test or the teardown, outside act: closed after the test that showed it instead.
afterEach(async () => {
  if (!notifier || typeof document === 'undefined') return;
  if (noticeShown || document.querySelector('.ant-notification-notice, .ant-message-notice, .ant-modal-wrap')) {
    noticeShown = false;
    await closeNotices();
  }
});

// Before a file's environment is torn down, close what the global notifier shows and let work already queued run
// (React's scheduler, antd's motion timers); then unmount every root still mounted (roots.ts), so that no late timer
// gives React work after the teardown.
afterAll(async () => {
  await closeNotices();
  await unmountRoots();
  // A line logged just before this point is still on its way to the main process: let it arrive first.
  await new Promise((resolve) => setTimeout(resolve, 50));
});
