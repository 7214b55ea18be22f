import { ROLE_PREFIX, resolveRole, type Role } from '../../auth/roles';
import type { SessionUser } from '../../types/session';

/** Where the contact screens live for each role (spec §2). */
export function contactPaths(user: SessionUser | null) {
  const role = resolveRole(user);
  const prefix = role === 'none' ? '/' : ROLE_PREFIX[role as Role];
  const staff = role === 'admin' || role === 'sales';
  return {
    staff,
    /** The list (customer and contact only; staff have none yet). */
    list: staff ? null : `${prefix}users/`,
    create: staff ? `${prefix}customers/user/create/` : `${prefix}users/create/`,
    edit: (uid: string) => (staff ? `${prefix}customers/user/update/${uid}/` : `${prefix}users/edit/${uid}/`),
  };
}
