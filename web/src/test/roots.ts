/**
 * Every React root a test file creates, by whoever creates it: the tests' own (src/test/renderApp.tsx and the few
 * files that mount a probe) and antd's, which draws its global notices, confirm dialogs and button waves in roots of
 * their own and unmounts them when their close motion ends, on a timer.
 *
 * Why: a root still mounted when the file's environment is torn down can still be given work by such a timer, and
 * React then renders where `window` is gone. That unhandled "window is not defined" failed the whole run though every
 * test passed (CI, twice, on a loaded machine). src/test/setup.ts unmounts every root still mounted before the
 * teardown, so no late timer has a root left to give work to.
 *
 * Recorded where both the app (imported through Vite) and antd (required by Node) take `createRoot` from: React DOM's
 * CommonJS module, whose exports the imports read. Installed when this module is first imported (by setup.ts, before
 * any test file's imports).
 */
import { createRequire } from 'node:module';
import type { Root } from 'react-dom/client';

const mounted = new Set<Root>();

const reactDomClient = createRequire(import.meta.url)('react-dom/client') as typeof import('react-dom/client');
const createRoot = reactDomClient.createRoot;
reactDomClient.createRoot = (...args: Parameters<typeof createRoot>) => {
  const root = createRoot(...args);
  mounted.add(root);
  const unmount = root.unmount.bind(root);
  root.unmount = () => {
    mounted.delete(root);
    unmount();
  };
  return root;
};

/** How many roots are mounted now. */
export function mountedRoots(): number {
  return mounted.size;
}

/**
 * Run `work` inside act where the file set act's environment up (so what it commits is done when this returns, and
 * React warns of no update outside act), as it is elsewhere (act itself would warn there).
 */
export async function inActWhereSet(work: () => void | Promise<void>): Promise<void> {
  if ((globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT) {
    const { act } = await import('react');
    await act(async () => work());
  } else {
    await work();
  }
}

/** Unmount every root still mounted, their effects' cleanups done when this returns. */
export async function unmountRoots(): Promise<void> {
  if (mounted.size) await inActWhereSet(() => [...mounted].forEach((root) => root.unmount()));
}
