import { afterAll, vi } from 'vitest';
// jsdom lacks matchMedia (used by antd's responsive helpers).
if (typeof window !== 'undefined' && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
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

// antd's global notification, message and confirm dialog (layout/notifier.tsx) draw in a root
// of their own that the pages' unmount does not reach, and close themselves on
// timers (a 6 s message, a 4.5 s notification). A timer firing after the
// file's environment is torn down meets no `window` and fails the run with an
// unhandled "window is not defined". Mocked as itself, only to learn whether
// a file loaded it: then its notices are destroyed before the teardown.
let notifier: typeof import('../layout/notifier') | null = null;
vi.mock('../layout/notifier', async (importOriginal) => {
  notifier = await importOriginal<typeof import('../layout/notifier')>();
  return notifier;
});

// Before a file's environment is torn down, close what the global notifier
// shows and let work already queued run (React's scheduler, antd's motion
// timers).
afterAll(async () => {
  if (notifier) {
    const { default: notification, message, modal } = notifier;
    notification.destroy();
    message.destroy();
    modal.destroyAll();
  }
  // The notices' leave motion ends on a timer (rc-motion's deadline, 500 ms) and commits once more. Inside act,
  // so that last commit logs no "not wrapped in act" warning: a console line written while the worker closes
  // fails the run ("Closing rpc while onUserConsoleLog was pending") though every test passed.
  // (Only where the file set up act's environment: elsewhere act itself would warn.)
  const settle = () => new Promise((resolve) => setTimeout(resolve, notifier ? 700 : 100));
  if ((globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT) {
    const { act } = await import('react');
    await act(settle);
  } else {
    await settle();
  }
  // A line logged just before this point is still on its way to the main process: let it arrive first.
  await new Promise((resolve) => setTimeout(resolve, 50));
});
