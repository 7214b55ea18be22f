import type { Auth, SessionUser } from '../types/session';
import { api, authorizationHeader } from './client';
import type {
  TwoFactorChallenge,
  CodeSent,
  MessageResponse,
  TwoFactorStatus,
  TotpSetup,
  TotpConfirmed,
  ChangePasswordInput,
  ConfirmRecoveryInput,
} from '../types/auth';

export function isTwoFactorChallenge(value: unknown): value is TwoFactorChallenge {
  const v = value as Partial<TwoFactorChallenge> | null;
  return !!v && typeof v === 'object' && v.two_factor_required === true && typeof v.two_factor_token === 'string' && v.two_factor_token !== '';
}

/**
 * POST /api/token/ — the token pair, or a two-factor challenge. 400
 * (invalid_credentials, account_inactive) and 429 (too_many_requests) are left
 * to the caller (shown inline on the login form). `deviceToken`, this
 * browser's token for the address, lets the right password through a
 * cool-down others' guesses started.
 */
export function obtainToken(email: string, password: string, deviceToken?: string): Promise<Auth | TwoFactorChallenge> {
  const body = deviceToken ? { email, password, device_token: deviceToken } : { email, password };
  return api.post<Auth | TwoFactorChallenge>('/token/', body, { anonymous: true, suppressError: [400, 401, 429] });
}

/** POST /api/token/2fa/ — the e-mailed code for a pending sign-in. 400/401/429 are shown inline by the caller. */
export function verifyTwoFactorCode(twoFactorToken: string, code: string): Promise<Auth> {
  return api.post<Auth>(
    '/token/2fa/',
    { two_factor_token: twoFactorToken, code },
    { anonymous: true, suppressError: [400, 401, 429] },
  );
}

/** POST /api/resend/2fa/ — mail a new code; answers with a new token. */
export function resendTwoFactorCode(twoFactorToken: string): Promise<CodeSent> {
  return api.post<CodeSent>('/resend/2fa/', { two_factor_token: twoFactorToken }, { anonymous: true, suppressError: [400, 401, 429] });
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

/** POST /api/logout/ — ends the sign-in the refresh token belongs to. Never shows an error. */
export function revokeSession(refreshToken: string): Promise<unknown> {
  return api.post('/logout/', { refresh_token: refreshToken }, { anonymous: true, suppressError: true });
}

/** GET /api/2fa/status/ */
export function fetchTwoFactorStatus(): Promise<TwoFactorStatus> {
  return api.get<TwoFactorStatus>('/2fa/status/');
}

/**
 * POST /api/2fa/toggle-activation/ with the state to set (the server would
 * flip without one). Turning it on ends every session (spec §4); turning it
 * off needs the current password (400 current_password_wrong /
 * password_or_code_required and 429 are shown on the form).
 */
export function setTwoFactorEnabled(enabled: true): Promise<TwoFactorStatus>;
export function setTwoFactorEnabled(enabled: false, password: string): Promise<TwoFactorStatus>;
export function setTwoFactorEnabled(enabled: boolean, password?: string): Promise<TwoFactorStatus> {
  if (enabled) return api.post<TwoFactorStatus>('/2fa/toggle-activation/', { enabled });
  return api.post<TwoFactorStatus>('/2fa/toggle-activation/', { enabled, password: password ?? '' }, { suppressError: [400, 429] });
}

/** POST /api/2fa/totp/setup/ — start enrolling an authenticator app. */
export function startTotpSetup(): Promise<TotpSetup> {
  return api.post<TotpSetup>('/2fa/totp/setup/', {});
}

/** POST /api/2fa/totp/confirm/ — the app's first code; 400/429 are shown on the form. */
export function confirmTotp(code: string): Promise<TotpConfirmed> {
  return api.post<TotpConfirmed>('/2fa/totp/confirm/', { code }, { suppressError: [400, 429] });
}

/** POST /api/2fa/totp/disable/ — with the current password or an app or recovery code; 400/429 on the form. */
export function disableTotp(proof: { password?: string; code?: string }): Promise<TwoFactorStatus> {
  return api.post<TwoFactorStatus>('/2fa/totp/disable/', proof, { suppressError: [400, 429] });
}

/** POST /api/password/change/ — a new token pair for this session (others end). 400/429 are shown on the form. */
export function changePassword(input: ChangePasswordInput): Promise<Auth> {
  return api.post<Auth>('/password/change/', input, { suppressError: [400, 429] });
}

/** POST /api/password/recover/ — always {"message": "recovery_sent"} (unless rate limited). */
export function requestPasswordRecovery(email: string): Promise<MessageResponse> {
  return api.post<MessageResponse>('/password/recover/', { email }, { anonymous: true, suppressError: [400, 429] });
}

/** POST /api/password/recover/confirm/ — {"message": "password_reset"}; 400 link_invalid or password rules. */
export function confirmPasswordRecovery(input: ConfirmRecoveryInput): Promise<MessageResponse> {
  return api.post<MessageResponse>('/password/recover/confirm/', input, { anonymous: true, suppressError: [400, 429] });
}
