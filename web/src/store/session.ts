import { useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_KEY, type Language } from '../config/constants';
import type { Auth, SessionUser } from '../types/session';
import { clearPendingTwoFactor } from './twoFactor';
import type { PurchasedService } from '../types/subscriptions';
import type { CustomerType } from '../types/customers';

/** Verified (digital signing) service token (spec §3). */
export interface VerifiedToken {
  token: string;
  company_id?: number | string | null;
  user_id?: number | string | null;
  basic_token?: string | null;
}

export interface Utilities {
  /** Route remembered when a guard sent the user to /login. */
  initialRoute: string | null;
  language: Language;
}

export interface ServicesState {
  token: string | null;
  purchased_services?: PurchasedService[];
  bisnode_account_active?: boolean;
  bisnode_account?: string | null;
  /** Company or individual: pages word themselves for a company or a person (null: not known). */
  customer_type?: CustomerType | null;
}

/** Persisted session, stored in localStorage under key `root` (spec §3). */
export interface RootState {
  user: SessionUser | null;
  auth: Auth | null;
  utilities: Utilities;
  /** Services token, plus the customer's `customer/{uid}/` answer (spec §7), loaded on entering the customer and contact areas. */
  services: ServicesState;
  verified: VerifiedToken | null;
  permission: string[];
}

export function initialState(language: Language = DEFAULT_LANGUAGE): RootState {
  return {
    user: null,
    auth: null,
    utilities: { initialRoute: null, language },
    services: { token: null },
    verified: null,
    permission: [],
  };
}

function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function loadState(): RootState {
  const base = initialState();
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return base;
  try {
    const parsed = JSON.parse(raw) as Partial<RootState>;
    const auth = parsed.auth && typeof parsed.auth.access_token === 'string' ? parsed.auth : null;
    return {
      user: parsed.user ?? null,
      auth,
      utilities: {
        initialRoute: parsed.utilities?.initialRoute ?? null,
        language: isLanguage(parsed.utilities?.language) ? parsed.utilities.language : base.utilities.language,
      },
      services: {
        token: parsed.services?.token ?? null,
        ...(Array.isArray(parsed.services?.purchased_services)
          ? {
              purchased_services: parsed.services.purchased_services,
              bisnode_account_active: !!parsed.services.bisnode_account_active,
              bisnode_account: parsed.services.bisnode_account ?? null,
              customer_type: parsed.services.customer_type === 'Individual' || parsed.services.customer_type === 'Company' ? parsed.services.customer_type : null,
            }
          : {}),
      },
      verified: parsed.verified ?? null,
      permission: Array.isArray(parsed.permission) ? parsed.permission : [],
    };
  } catch {
    return base;
  }
}

let state: RootState = loadState();
const listeners = new Set<() => void>();

function persist(): void {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    /* storage full or unavailable: keep the in-memory state */
  }
}

export function getState(): RootState {
  return state;
}

export function setState(update: Partial<RootState> | ((s: RootState) => Partial<RootState>)): void {
  const patch = typeof update === 'function' ? update(state) : update;
  state = { ...state, ...patch };
  persist();
  listeners.forEach((l) => l());
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** React hook: a slice of the session state. */
export function useSession<T>(selector: (s: RootState) => T): T {
  return useSyncExternalStore(subscribe, () => selector(state), () => selector(state));
}

export const setAuth = (auth: Auth | null) => setState({ auth });
export const setUser = (user: SessionUser | null) => setState({ user });
export const setPermissions = (permission: string[]) => setState({ permission });
export const setInitialRoute = (initialRoute: string | null) =>
  setState((s) => ({ utilities: { ...s.utilities, initialRoute } }));
export const setLanguage = (language: Language) =>
  setState((s) => ({ utilities: { ...s.utilities, language } }));

let endedOnPurpose = false;

/**
 * Logout / any 401 (spec §4): reset auth and user, the initial route, the
 * services token and the verified token. The language is kept; a pending
 * two-factor sign-in is dropped.
 *
 * `onPurpose`: the user ended the session (log out, or turning two-factor
 * on). The role guard then sends them to /login without remembering the page
 * they were on, so the next login lands on the dashboard.
 */
export function clearSession(opts: { onPurpose?: boolean } = {}): void {
  endedOnPurpose = !!opts.onPurpose;
  clearPendingTwoFactor();
  setState((s) => ({
    ...initialState(s.utilities.language),
  }));
}

/** True after clearSession({ onPurpose: true }) until acknowledged (read by the role guard). */
export function sessionEndedOnPurpose(): boolean {
  return endedOnPurpose;
}

/** Forget that the last session was ended on purpose (after the guard's redirect, or a new login). */
export function acknowledgeSessionEnd(): void {
  endedOnPurpose = false;
}

/** Re-read localStorage (tests). */
export function reloadState(): void {
  state = loadState();
  listeners.forEach((l) => l());
}
