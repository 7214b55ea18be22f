import { TWO_FACTOR_STORAGE_KEY } from '../config/constants';

/**
 * A sign-in waiting for its second step (e-mailed code or authenticator app): the opaque token from POST
 * /api/token/ (or /api/resend/2fa/). Kept in sessionStorage, so it survives a
 * reload of the tab but not the tab itself, and is never put in `root`.
 */
export interface PendingTwoFactor {
  token: string;
  /** 'email' (the code was mailed) or 'totp' (the authenticator app's code; nothing mailed). */
  method: string;
}

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

export function getPendingTwoFactor(): PendingTwoFactor | null {
  const raw = storage()?.getItem(TWO_FACTOR_STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<PendingTwoFactor>;
    if (typeof parsed.token !== 'string' || !parsed.token) return null;
    return { token: parsed.token, method: typeof parsed.method === 'string' ? parsed.method : 'email' };
  } catch {
    return null;
  }
}

export function setPendingTwoFactor(pending: PendingTwoFactor): void {
  try {
    storage()?.setItem(TWO_FACTOR_STORAGE_KEY, JSON.stringify(pending));
  } catch {
    /* storage unavailable: the code page then sends the user back to /login */
  }
}

export function clearPendingTwoFactor(): void {
  try {
    storage()?.removeItem(TWO_FACTOR_STORAGE_KEY);
  } catch {
    /* ignore */
  }
}
