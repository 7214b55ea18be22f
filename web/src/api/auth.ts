import type { Auth, SessionUser } from '../auth/types';
import { api, authorizationHeader } from './client';

/** POST /api/token/ — 400 invalid_credentials is left to the caller (shown inline on the login form). */
export function obtainToken(email: string, password: string): Promise<Auth> {
  return api.post<Auth>('/token/', { email, password }, { anonymous: true, suppressError: [400, 401] });
}

/**
 * GET /api/profile/ — the session user. `auth` sends that token instead of the
 * stored one (used right after login, before the session is stored).
 */
export function fetchProfile(opts: { auth?: Auth; suppressError?: boolean } = {}): Promise<SessionUser> {
  const header = opts.auth ? authorizationHeader(opts.auth) : null;
  return api.get<SessionUser>('/profile/', {
    suppressError: opts.suppressError,
    headers: header ? { Authorization: header } : undefined,
  });
}
