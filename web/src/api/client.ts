/**
 * The one API client. Uses aws-amplify's REST API category against the same
 * origin's /api/ (no AWS signing: defaultAuthMode 'none'), adds the
 * Authorization header from the stored auth, refreshes the token once on a
 * 401 and otherwise logs the user out (spec §4, §8).
 */
import type { post as amplifyPost } from '@aws-amplify/api-rest';
import { clearSession, getState, setAuth } from '../store/session';
import { navigateTo } from '../navigation';
import { loadServerTexts } from '../i18n';
import type { Auth } from '../types/session';
import { ApiError, type ApiErrorBody } from './errors';
import { API_NAME, apiErrorHook, loadApi, type AmplifyRest } from './setup';

// What the entry uses (start-up, the §8 warning's hook) is api/setup.ts: this module (the requests, the token's
// refresh, the retried POSTs) loads with the first API module a page imports, not with the first page.
export { API_NAME, configureApi, loadApi, loadApiOnFirstUse, onApiError, type ErrorHook } from './setup';

type AmplifyOptions = NonNullable<Parameters<typeof amplifyPost>[0]['options']>;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Suppress the §8 warning notification: true for every status, or a list of statuses. */
  suppressError?: boolean | number[];
  /** Do not send the Authorization header nor treat 401 as a logout (token endpoints). */
  anonymous?: boolean;
  /** The answer is a file: a 2xx body comes back as a Blob (errors stay JSON). */
  binary?: boolean;
}

/** The request header that makes a POST happen once (IETF httpapi draft). */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** Statuses after which a POST is sent once more with its key: the first may have been stored. */
const RETRIED = [0, 503, 504];

/** A fresh key: a random UUID (also where `crypto.randomUUID` is missing: plain http on a LAN address). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The header for a key a form draws once and keeps until its write
 * succeeded (so a second press after a lost answer is answered from the first).
 */
export function idempotencyHeader(key: string): Record<string, string> {
  return { [IDEMPOTENCY_KEY]: `"${key}"` };
}

export function authorizationHeader(auth: Auth | null): string | null {
  if (!auth?.access_token) return null;
  return `${auth.token_type || 'Bearer'} ${auth.access_token}`;
}

function toQuery(query: RequestOptions['query']): Record<string, string> | undefined {
  if (!query) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (v != null) out[k] = String(v);
  return out;
}

function parseBody(text: string | undefined | null): unknown {
  if (text == null || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface RawResult {
  status: number;
  body: unknown;
}

const methodOf = (rest: AmplifyRest, method: Method) =>
  ({ GET: rest.get, POST: rest.post, PUT: rest.put, PATCH: rest.patch, DELETE: rest.del })[method];

/** One HTTP exchange; never throws for HTTP errors (status 0 = network failure). */
async function send(method: Method, path: string, opts: RequestOptions): Promise<RawResult> {
  const rest = await loadApi().catch(() => null);
  // The chunk could not load (offline): as a network failure.
  if (!rest) return { status: 0, body: null };
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  const authHeader = opts.anonymous ? null : authorizationHeader(getState().auth);
  if (authHeader && !headers.Authorization) headers.Authorization = authHeader;
  const options: AmplifyOptions = { headers };
  const queryParams = toQuery(opts.query);
  if (queryParams) options.queryParams = queryParams;
  if (opts.body !== undefined && method !== 'GET') options.body = opts.body as AmplifyOptions['body'];
  try {
    const { statusCode, body } = await methodOf(rest, method)({ apiName: API_NAME, path, options }).response;
    if (opts.binary && statusCode >= 200 && statusCode < 300) return { status: statusCode, body: await body.blob() };
    const text = method === 'DELETE' && statusCode === 204 ? '' : await body.text();
    return { status: statusCode, body: parseBody(text) };
  } catch (err) {
    const response = (err as { response?: { statusCode?: number; body?: string } }).response;
    if (response && typeof response.statusCode === 'number') {
      return { status: response.statusCode, body: parseBody(response.body) };
    }
    return { status: 0, body: null };
  }
}

let refreshing: Promise<boolean> | null = null;

/** POST /token/refresh/ once, shared by concurrent callers. True when a new token is stored. */
export function refreshAuth(): Promise<boolean> {
  const refreshToken = getState().auth?.refresh_token;
  if (!refreshToken) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const res = await send('POST', '/token/refresh/', { body: { refresh_token: refreshToken }, anonymous: true });
      const auth = res.body as Auth | null;
      if (res.status >= 200 && res.status < 300 && auth?.access_token) {
        setAuth(auth);
        return true;
      }
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** Spec §4: on a final 401, clear the session and go to /login. */
export function handleUnauthorized(): void {
  const from =
    typeof window !== 'undefined' ? `${window.location.pathname}${window.location.search}` : undefined;
  clearSession();
  navigateTo('/login', { replace: true, state: from && from !== '/login' ? { from } : undefined });
}

function shouldNotify(status: number, suppress: RequestOptions['suppressError']): boolean {
  if (suppress === true) return false;
  if (Array.isArray(suppress)) return !suppress.includes(status);
  return true;
}

export async function request<T = unknown>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  // One key per user action (this call), the same for its retry: a POST
  // whose answer was lost is answered from the first time, not done twice.
  // A form may bring its own key (kept across presses until it succeeds),
  // also without signing in (the sign-up, whose key the server scopes).
  const once = method === 'POST' && (!opts.anonymous || !!opts.headers?.[IDEMPOTENCY_KEY]);
  if (once && !opts.headers?.[IDEMPOTENCY_KEY]) opts = { ...opts, headers: { ...opts.headers, ...idempotencyHeader(newIdempotencyKey()) } };
  // The server's texts (not in the first page's chunk: i18n/groups.ts) load beside the call, so whatever the page
  // shows of the answer (a message key, an error) is translated when it comes. Not awaited without an answer
  // (offline: the chunk would not come either; the network error's text is in the first chunk).
  const texts = loadServerTexts();
  let res = await send(method, path, opts);
  if (once && RETRIED.includes(res.status)) res = await send(method, path, opts);
  if (res.status !== 0) await texts;
  if (res.status === 401 && !opts.anonymous) {
    if (getState().auth?.refresh_token && (await refreshAuth())) res = await send(method, path, opts);
    if (res.status === 401) {
      handleUnauthorized();
      throw new ApiError(401, res.body as ApiErrorBody | null);
    }
  }
  if (res.status >= 200 && res.status < 300) return res.body as T;
  if (shouldNotify(res.status, opts.suppressError)) apiErrorHook()?.(res.status, res.body);
  const body = res.body && typeof res.body === 'object' ? (res.body as ApiErrorBody) : res.body ? { message: String(res.body) } : null;
  throw new ApiError(res.status, body);
}

export const api = {
  get: <T = unknown>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, opts),
  post: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body }),
  put: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, { ...opts, body }),
  del: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
  /** GET a file (spreadsheets, reports) as a Blob. */
  blob: (path: string, opts?: Omit<RequestOptions, 'body' | 'binary'>) => request<Blob>('GET', path, { ...opts, binary: true }),
};
