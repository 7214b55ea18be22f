/**
 * React's `lazy` for a page that can be loaded before it is first drawn.
 *
 * A lazy component suspends at its first render even when its chunk is already in (its import settles a moment
 * later): React then commits the Suspense fallback and holds the page back until 300 ms after the fallback appeared
 * (its throttled reveal of retried content). On the first page of a visit the chunk is usually in before the entry
 * has run (index.html's hints preload it), so that wait was most of what stood between the entry and the page.
 * Loaded before the first render (`preload`, main.tsx), the page draws at once, with no fallback before it.
 */
import { createElement, lazy, useState, type ComponentType } from 'react';

export type PreloadableComponent<P extends object> = ComponentType<P> & {
  /** Loads the page's module (once; again after a failure) and resolves when it is in. */
  preload: () => Promise<unknown>;
};

export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): PreloadableComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // Not kept: the next render (or preload) tries again.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(preload);
  function Preloaded(props: P) {
    // Chosen once per mount: turning from the lazy wrapper to the module's own component on a later render would
    // mount the page afresh (its state lost).
    const [page] = useState(() => loaded);
    return page ? createElement(page, props) : createElement(Lazy, props);
  }
  return Object.assign(Preloaded, { preload });
}
