/** Where each role's case screens live (spec §2); the API decides what each role may do. */
import { resolveRole, ROLE_PREFIX, type Role } from '../../auth/roles';
import type { SessionUser } from '../../types/session';
import type { CaseListKind, CreateVia } from '../../types/cases';

export interface CasePaths {
  role: Role | null;
  list: string;
  details: (uid: string) => string;
  history: (uid: string) => string;
  /** null: this role has no create screen. */
  create: string | null;
  edit: ((uid: string) => string) | null;
  via: CreateVia | null;
}

export function casePaths(user: SessionUser | null | undefined): CasePaths {
  const r = resolveRole(user);
  const role = r === 'none' ? null : r;
  const p = role ? ROLE_PREFIX[role] : '/';
  const staff = role === 'admin' || role === 'sales';
  return {
    role,
    list: `${p}cases/`,
    details: (uid) => `${p}cases/details/${uid}`,
    history: (uid) => `${p}cases/history/${uid}`,
    create: role === null ? null : staff ? `${p}case/create` : `${p}cases/create`,
    // The customer side edits its drafts at cases/edit/ (spec §2 lists it for
    // the contact, whose set is 'the same as the customer'); the uid follows.
    edit: staff
      ? (uid) => `${p}case/update/${uid}/`
      : role === 'lawyer'
        ? (uid) => `${p}cases/update/${uid}`
        : role === 'customer' || role === 'customerContact'
          ? (uid) => `${p}cases/edit/${uid}`
          : null,
    via: staff ? 'staff' : role === 'lawyer' ? 'lawyer' : role === 'customer' || role === 'customerContact' ? 'customer' : null,
  };
}

/** The list a route shows, from its title key. */
export function listKindOf(titleKey: string): CaseListKind {
  switch (titleKey) {
    case 'pendingCases':
      return 'pending';
    case 'draftCases':
      return 'draft';
    case 'availableCases':
      return 'available';
    case 'closedCases':
      return 'closed';
    default:
      return 'my';
  }
}
