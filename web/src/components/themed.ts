/**
 * Loading what draws antd with antd's theme (components/AntdTheme.tsx) and antd's locale of the shown language, both
 * before it first draws (no text changes language after it shows). The entry holds none of them: the first pages
 * draw no antd component (components/plain; src/budget.test.ts).
 */
import type { ComponentType } from 'react';
import { loadAntdLocale } from '../i18n';

/** A lazily loaded module whose default export is drawn inside antd's theme (for React's `lazy`). */
export function themedModule<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Promise<{ default: ComponentType<P> }> {
  return Promise.all([load(), import('./AntdTheme'), loadAntdLocale()]).then(([module, theme]) => ({ default: theme.withAntdTheme(module.default) }));
}

/**
 * Fetch antd's theme and locale ahead of the first page that draws antd: an area's dashboard draws none, so its first
 * click on another page would wait for them (app/RoleArea.tsx calls this at the first click or key, or when idle).
 */
export function preloadAntdTheme(): void {
  void Promise.all([import('./AntdTheme'), loadAntdLocale()]).catch(() => undefined);
}
