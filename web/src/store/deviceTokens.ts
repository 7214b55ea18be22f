import { DEVICE_TOKENS_STORAGE_KEY } from '../config/constants';

/**
 * Device tokens (lock-out-proof sign-in): each completed sign-in answers with a signed
 * `device_token` naming this browser for that account. Sent back with the
 * next password step for the same address, it lets the right password
 * through the account's cool-down that someone else's wrong guesses started,
 * so nobody can lock the owner out. Kept in localStorage per e-mail address
 * (a few accounts at most), never in the session (`root`), and kept on
 * logout: it proves only that this browser signed in before.
 */
export const MAX_DEVICE_TOKENS = 5;

type Stored = Record<string, { token: string; at: number }>;

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

function key(email: string): string {
  return email.trim().toLowerCase();
}

function read(): Stored {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(DEVICE_TOKENS_STORAGE_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Stored = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      const e = v as { token?: unknown; at?: unknown } | null;
      if (e && typeof e.token === 'string' && e.token && typeof e.at === 'number') out[k] = { token: e.token, at: e.at };
    }
    return out;
  } catch {
    return {};
  }
}

/** The device token this browser holds for `email`, if any. */
export function getDeviceToken(email: string): string | undefined {
  return read()[key(email)]?.token;
}

/** Keeps `token` for `email`; the oldest entries go beyond MAX_DEVICE_TOKENS. */
export function rememberDeviceToken(email: string, token: string, now: number = Date.now()): void {
  if (!email || !token) return;
  const all = read();
  all[key(email)] = { token, at: now };
  const kept = Object.entries(all)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX_DEVICE_TOKENS);
  try {
    storage()?.setItem(DEVICE_TOKENS_STORAGE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    /* storage unavailable: the next sign-in simply has no device token */
  }
}
