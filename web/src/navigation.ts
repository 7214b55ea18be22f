/**
 * Navigation from outside React (the API client). The router registers its
 * navigate function at start-up; before that, a full page load is used.
 */
type NavigateFn = (to: string, opts?: { replace?: boolean; state?: unknown }) => void;

let navigateFn: NavigateFn | null = null;

export function setNavigate(fn: NavigateFn | null): void {
  navigateFn = fn;
}

export function navigateTo(to: string, opts?: { replace?: boolean; state?: unknown }): void {
  if (navigateFn) navigateFn(to, opts);
  else if (typeof window !== 'undefined') window.location.assign(to);
}
