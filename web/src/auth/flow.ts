/**
 * Signing in and out (spec §4): the password step, the e-mailed two-factor
 * code, storing the session, and logging out. The pages call these; the steps
 * live here once.
 */
import {
  fetchProfile,
  isTwoFactorChallenge,
  obtainToken,
  resendTwoFactorCode,
  revokeSession,
  verifyTwoFactorCode,
} from '../api/auth';
import { fetchPermissions } from '../api/users';
import { navigateTo } from '../navigation';
import { acknowledgeSessionEnd, clearSession, getState, setPermissions, setState } from '../store/session';
import { clearPendingTwoFactor, getPendingTwoFactor, setPendingTwoFactor } from '../store/twoFactor';
import { getDeviceToken, rememberDeviceToken } from '../store/deviceTokens';
import { LOGIN_PATH, postLoginTarget } from './guards';
import { resolveRole } from './roles';
import type { Auth } from '../types/session';

export type LoginOutcome =
  /** Session stored; go to `target` (the remembered origin or the dashboard). */
  | { kind: 'signedIn'; target: string }
  /** A second step is needed (a code was e-mailed, or the authenticator app's); the pending token is stored; go to /authentication. */
  | { kind: 'twoFactor' }
  /** The account has no role in the portal; nothing is stored. */
  | { kind: 'noRole' };

/** How long logging out waits for POST /api/logout/ before clearing the session anyway. */
export const LOGOUT_TIMEOUT_MS = 5000;

/**
 * The end of every login (password only, or password + code): load the
 * session user with the new token, check the role, store auth and user, and
 * pick the target. `origin` is the page the guard remembered, if any.
 */
export async function completeLogin(signedIn: Auth, origin: string | null): Promise<LoginOutcome> {
  // The device token is this browser's, kept apart from the session.
  const { device_token: deviceToken, ...auth } = signedIn;
  const user = await fetchProfile({ auth });
  if (deviceToken && user?.email) rememberDeviceToken(user.email, deviceToken);
  const role = resolveRole(user);
  clearPendingTwoFactor();
  if (role === 'none') {
    clearSession();
    return { kind: 'noRole' };
  }
  // A contact's menus and guards depend on its permission codes (spec §5);
  // every other role holds them all and needs no call.
  const permission = role === 'customerContact' ? await fetchPermissions({ auth }) : [];
  const target = postLoginTarget(role, origin);
  acknowledgeSessionEnd();
  setState((s) => ({ auth, user, permission, utilities: { ...s.utilities, initialRoute: null } }));
  return { kind: 'signedIn', target };
}

/** Step one: e-mail and password. Branches on `two_factor_required`. */
export async function login(email: string, password: string, origin: string | null): Promise<LoginOutcome> {
  const result = await obtainToken(email, password, getDeviceToken(email));
  if (isTwoFactorChallenge(result)) {
    setPendingTwoFactor({ token: result.two_factor_token, method: result.method || 'email' });
    return { kind: 'twoFactor' };
  }
  return completeLogin(result, origin);
}

/** Step two: the 6-digit code (mailed or from the app) or a recovery code for the pending sign-in. */
export async function submitTwoFactorCode(code: string, origin: string | null): Promise<LoginOutcome> {
  const pending = getPendingTwoFactor();
  if (!pending) throw new Error('no pending two-factor sign-in');
  const auth = await verifyTwoFactorCode(pending.token, code);
  return completeLogin(auth, origin);
}

/** Mail a new code; the answer's token replaces the pending one. Returns the server message key. */
export async function resendCode(): Promise<string> {
  const pending = getPendingTwoFactor();
  if (!pending) throw new Error('no pending two-factor sign-in');
  const sent = await resendTwoFactorCode(pending.token);
  if (sent?.two_factor_token) setPendingTwoFactor({ token: sent.two_factor_token, method: sent.method || pending.method });
  return sent?.message || 'code_sent';
}

/**
 * End the session here without asking the server (it has already ended it,
 * e.g. after turning two-factor on): clear the session and go to /login.
 */
export function signOutLocally(): void {
  clearSession({ onPurpose: true });
  navigateTo(LOGIN_PATH, { replace: true });
}

/**
 * Log out (spec §4): POST /api/logout/ with the refresh token (anonymous, no
 * error shown), then clear the session and go to /login — even when the call
 * fails or takes longer than LOGOUT_TIMEOUT_MS.
 */
export async function logout(): Promise<void> {
  const refreshToken = getState().auth?.refresh_token;
  if (refreshToken) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, LOGOUT_TIMEOUT_MS);
    });
    try {
      await Promise.race([revokeSession(refreshToken).catch(() => undefined), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  signOutLocally();
}

/**
 * Reload the signed-in contact's permission codes (entering the contact area:
 * the customer may have changed them since sign-in); menus and guards read
 * the stored list. A failure keeps it (a 401 has already signed the user out).
 */
export async function refreshPermissions(): Promise<void> {
  try {
    setPermissions(await fetchPermissions({ suppressError: true }));
  } catch {
    /* keep the stored list */
  }
}
