/**
 * Errors in view: every form scrolls to its first wrong field and focuses it
 * (antd's scrollToFirstError, set once for all forms in components/AntdTheme.tsx), and an error
 * that is not beside a field (an Alert above the form) is scrolled into view,
 * so a failed submit far down a long form never seems to do nothing.
 */
import type { FormInstance } from 'antd';

/** antd's scroll options for a form's first error: centred (clear of the fixed header), focused. */
export const SCROLL_TO_FIRST_ERROR = { block: 'center', focus: true } as const;

/** The ConfigProvider's form settings for every form of the app. */
export const FORM_CONFIG = { scrollToFirstError: SCROLL_TO_FIRST_ERROR };

/** Brings `el` into view unless it already is wholly within the window. */
export function revealElement(el: Element | null | undefined): void {
  if (!el || typeof el.getBoundingClientRect !== 'function') return;
  const r = el.getBoundingClientRect();
  const inView = r.top >= 0 && r.bottom <= (window.innerHeight || document.documentElement.clientHeight);
  if (!inView && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'center' });
}

/** Scrolls to and focuses the first of `names` (fields the server refused), as a failed client check does. */
export function revealField(form: Partial<Pick<FormInstance, 'scrollToField'>>, names: ReadonlyArray<string | (string | number)[]>): void {
  if (!names.length || typeof form.scrollToField !== 'function') return;
  form.scrollToField(names[0] as string, SCROLL_TO_FIRST_ERROR);
}
