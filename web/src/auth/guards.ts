import { dashboardPath, roleOfPath, type RoleOrNone } from './roles';

/** Public routes (spec §2). A signed-in user visiting one is sent to their dashboard. */
export const PUBLIC_PATHS = [
  '/',
  '/login',
  '/registration',
  '/recover-password',
  '/authentication',
  '/approve/customer',
  '/confirm/account',
  '/recovery/account',
] as const;

export const LOGIN_PATH = '/login';

function normalise(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname;
}

export function isPublicPath(pathname: string): boolean {
  const p = normalise(pathname);
  return (PUBLIC_PATHS as readonly string[]).includes(p);
}

export interface GuardInput {
  pathname: string;
  /** Query string including the leading '?', or ''. */
  search?: string;
  hasToken: boolean;
  role: RoleOrNone;
}

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'login'; from: string }
  | { kind: 'dashboard'; to: string }
  | { kind: 'notFound' };

/**
 * Spec §2 guards, as a pure function:
 * - public route: allowed, unless signed in with a role → own dashboard;
 * - role prefix without token → /login, remembering the origin;
 * - role prefix with token of another role (or no role) → page not found;
 * - own prefix → allowed;
 * - anything else → page not found.
 */
export function decideAccess({ pathname, search = '', hasToken, role }: GuardInput): GuardDecision {
  if (isPublicPath(pathname)) {
    if (hasToken && role !== 'none') return { kind: 'dashboard', to: dashboardPath(role) };
    return { kind: 'allow' };
  }
  const owner = roleOfPath(pathname);
  if (owner === null) return { kind: 'notFound' };
  if (!hasToken) return { kind: 'login', from: `${pathname}${search}` };
  if (role !== owner) return { kind: 'notFound' };
  return { kind: 'allow' };
}

/**
 * Where to go after login: the remembered origin if it lies under the role's
 * own prefix, else the role's dashboard.
 */
export function postLoginTarget(role: Exclude<RoleOrNone, 'none'>, from: string | null | undefined): string {
  if (from) {
    const pathname = from.split(/[?#]/)[0];
    if (roleOfPath(pathname) === role) return from;
  }
  return dashboardPath(role);
}
