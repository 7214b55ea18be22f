import { useSyncExternalStore } from 'react';

/**
 * Whether the window is at least `px` wide, following it as it changes (antd's Grid.useBreakpoint without antd: the
 * areas' shell is their first page, which loads none, src/budget.test.ts). Known at the first render, so the menu and
 * the content are drawn where they stay.
 */
export function useWidthAtLeast(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  return useSyncExternalStore(
    (changed) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : window.innerWidth >= px),
    () => true,
  );
}
