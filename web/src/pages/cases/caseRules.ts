/** What the case screens do differently per role and per list (spec §2, §4, §6). */
import type { Role } from '../../auth/roles';
import type { RouteId } from '../../routes/catalogue';
import type { CaseStatus, CreateVia } from '../../types/cases';

/** The create call each role uses: staff (admin, sales person), the lawyer's, or the customer side's. */
export function createViaOf(role: Role): CreateVia {
  if (role === 'admin' || role === 'sales') return 'staff';
  return role === 'lawyer' ? 'lawyer' : 'customer';
}

/** One tab of a role's case list page: its route, the `case/list/?status=` word and its label. */
export interface CaseTab {
  route: RouteId;
  /** The API's list word (shared/src/domain/policy/case.rs `list_plan`). */
  word: string;
  /** Key in the `cases` namespace. */
  label: string;
  /** The status whose §4 colour marks the tab (none: a mixed list). */
  status?: CaseStatus;
  /** The admin's pending tab carries the pending-cases count. */
  badge?: 'pending_cases';
}

/** The customer's tabs, a contact's the same. */
const CUSTOMER_TABS: CaseTab[] = [
  { route: 'cases', word: 'my', label: 'tabs.active' },
  { route: 'closedCases', word: 'closed', label: 'tabs.closed', status: 'Complete' },
  { route: 'draftCases', word: 'draft', label: 'tabs.pending', status: 'Draft' },
];

/**
 * Each role's case tabs (spec §2 routes, §4 words and colours):
 * admin my cases, pending, available, in progress, closed; lawyer my cases,
 * pending, available, closed; sales all, pending (draft), available, closed;
 * customer and contact active, closed, pending (draft).
 */
export const CASE_TABS: Record<Role, CaseTab[]> = {
  admin: [
    { route: 'myCases', word: 'mine', label: 'tabs.myCases' },
    { route: 'pendingCases', word: 'pending', label: 'tabs.pending', status: 'Draft', badge: 'pending_cases' },
    { route: 'availableCases', word: 'available', label: 'tabs.available', status: 'Waiting' },
    { route: 'cases', word: 'active', label: 'tabs.inProgress', status: 'Inprogress' },
    { route: 'closedCases', word: 'closed', label: 'tabs.closed', status: 'Complete' },
  ],
  lawyer: [
    { route: 'cases', word: 'my', label: 'tabs.myCases', status: 'Inprogress' },
    { route: 'pendingCases', word: 'pending', label: 'tabs.pending', status: 'Draft' },
    { route: 'availableCases', word: 'available', label: 'tabs.available', status: 'Waiting' },
    { route: 'closedCases', word: 'closed', label: 'tabs.closed', status: 'Complete' },
  ],
  sales: [
    { route: 'cases', word: 'all', label: 'tabs.all' },
    { route: 'draftCases', word: 'draft', label: 'tabs.pending', status: 'Draft' },
    { route: 'availableCases', word: 'available', label: 'tabs.available', status: 'Waiting' },
    { route: 'closedCases', word: 'closed', label: 'tabs.closed', status: 'Complete' },
  ],
  customer: CUSTOMER_TABS,
  customerContact: CUSTOMER_TABS,
};

/** The sort of a case list by created date (`order=`). */
export type CaseOrder = 'desc' | 'asc';
