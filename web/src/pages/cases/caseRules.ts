/** What the case screens do differently per role and per list (spec §2, §6). */
import type { Role } from '../../auth/roles';
import type { CaseListKind, CreateVia } from '../../types/cases';

/** The create call each role uses: staff (admin, sales person), the lawyer's, or the customer side's. */
export function createViaOf(role: Role): CreateVia {
  if (role === 'admin' || role === 'sales') return 'staff';
  return role === 'lawyer' ? 'lawyer' : 'customer';
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
