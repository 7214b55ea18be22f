/**
 * The API client's start-up, in the entry: where the API is (`configureApi`), the hook for failed calls (the §8
 * warning, `onApiError`) and Amplify's lazy load (`loadApi`, `loadApiOnFirstUse`). The requests themselves are
 * api/client.ts, loaded with the API's modules: the first page makes no call (its budget, src/budget.test.ts).
 */
export const API_NAME = 'api';

/** What the UI does with a failed call the caller did not suppress (the spec §8 warning). */
export type ErrorHook = (status: number, body: unknown) => void;

let errorHook: ErrorHook | null = null;

/**
 * Register the hook for failed calls (null: none). The UI registers its
 * notification at start-up (layout/errorNotification.ts); the client shows nothing itself.
 */
export function onApiError(hook: ErrorHook | null): void {
  errorHook = hook;
}

/** The hook registered for failed calls (api/client.ts). */
export function apiErrorHook(): ErrorHook | null {
  return errorHook;
}

let endpoint: string | null = null;

/** Where Amplify's REST category will point: `<origin>/api`. Idempotent. */
export function configureApi(origin: string = window.location.origin): void {
  endpoint ??= `${origin.replace(/\/$/, '')}/api`;
}

export type AmplifyRest = (typeof import('./amplify'))['rest'];
let amplify: Promise<AmplifyRest> | null = null;

/**
 * Amplify (core and REST, ~10 KiB gzip) loads with the first call, or at the
 * visitor's first key, press or focus (main.tsx `loadApiOnFirstUse`), not
 * before the login form is usable (its budget); configured once, then.
 */
export function loadApi(): Promise<AmplifyRest> {
  configureApi();
  return (amplify ??= import('./amplify').then(({ configure, rest }) => {
    configure(endpoint!, API_NAME);
    return rest;
  }));
}

/**
 * Loads the API client at the first key, press or focus on the page (the person is about to fill in or leave the
 * page), so the first call does not wait for it. Not when the page is idle: on a slow phone that was ~14 KiB and a
 * long task right after the first page showed (Lighthouse's blocking time), for a visitor who may only look.
 */
export function loadApiOnFirstUse(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): void {
  const events = ['keydown', 'pointerdown', 'focusin'] as const;
  const load = () => {
    for (const e of events) target.removeEventListener(e, load, true);
    void loadApi();
  };
  for (const e of events) target.addEventListener(e, load, true);
}
