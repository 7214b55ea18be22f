import type { SessionUser } from '../types/session';

export type Role = 'admin' | 'lawyer' | 'sales' | 'customer' | 'customerContact';
export type RoleOrNone = Role | 'none';

export const ROLES: readonly Role[] = ['admin', 'lawyer', 'sales', 'customer', 'customerContact'];

/** user_type values (spec §6). */
export const USER_TYPE = {
  lawyer: 1,
  salesPerson: 2,
  customer: 3,
  customerContact: 4,
} as const;

/** URL prefix (with trailing slash) of each role; the prefix root is the role's dashboard. */
export const ROLE_PREFIX: Record<Role, string> = {
  admin: '/admin/',
  lawyer: '/lawyer/',
  sales: '/sales/',
  customer: '/user/',
  customerContact: '/customer_contact/',
};

/**
 * Spec §6, in order: is_staff → admin; user_type 1 lawyer, 2 sales person,
 * 3 customer, 4 customer contact; otherwise none.
 */
export function resolveRole(user: Pick<SessionUser, 'is_staff' | 'user_type'> | null | undefined): RoleOrNone {
  if (!user) return 'none';
  if (user.is_staff === true) return 'admin';
  const type = user.user_type ?? NaN;
  switch (type) {
    case USER_TYPE.lawyer:
      return 'lawyer';
    case USER_TYPE.salesPerson:
      return 'sales';
    case USER_TYPE.customer:
      return 'customer';
    case USER_TYPE.customerContact:
      return 'customerContact';
    default:
      return 'none';
  }
}

export function dashboardPath(role: Role): string {
  return ROLE_PREFIX[role];
}

/** True when `pathname` is the role prefix itself (with or without trailing slash) or below it. */
export function isUnderPrefix(pathname: string, prefix: string): boolean {
  const bare = prefix.replace(/\/$/, '');
  return pathname === bare || pathname.startsWith(`${bare}/`);
}

/** The role whose prefix `pathname` lies under, if any. */
export function roleOfPath(pathname: string): Role | null {
  for (const role of ROLES) {
    if (isUnderPrefix(pathname, ROLE_PREFIX[role])) return role;
  }
  return null;
}
