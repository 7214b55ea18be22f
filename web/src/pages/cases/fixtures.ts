/** Sample cases and users for the case screens' tests (one shape, many tests). */
import type { Case, CaseDetails } from '../../types/cases';

export const customerUser = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };
export const adminUser = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, full_name: 'Ada Admin', uid: 'adm-1', image: 'not set' };
export const lawyerUser = { email: 'l@example.com', id: 9, is_staff: false, user_type: 1, full_name: 'Lars Jurist', uid: 'law-1', image: 'not set' };

/** An in-progress case of customer cust-1 worked by law-1. */
export function sampleCase(over: Partial<Case> = {}): Case {
  return {
    uid: 'case-1',
    case_number: '2026-000001',
    status: 'Inprogress',
    customer: 'cust-1',
    customer_name: 'Acme AB',
    address: { address_1: 'Storgatan 1', city: 'Stockholm', country: 'Sweden', post_code: '11122' },
    subject: 'Lease dispute',
    description: 'Rent',
    type: { id: 1, name: 'Tenancy' },
    estimated_hours: 2.5,
    client: '',
    direct_assign_lawyer: null,
    lawyer: 'law-1',
    lawyer_name: 'Lars Jurist',
    counterpart: 'Hyresvärden AB',
    disqualification_control: false,
    short_internal_description: '',
    start_date: null,
    deadline: null,
    contact_person: '',
    note: '',
    files: [],
    created_by: 'cust-1',
    created_at: '2026-11-23T10:00:00Z',
    updated_at: '2026-11-23T10:00:00Z',
    ...over,
  };
}

export function sampleDetails(over: Partial<CaseDetails> = {}): CaseDetails {
  return { ...sampleCase(over), actions: [], can_edit: false, can_enter_hours: false, ...over };
}

/** What a role area reads around a case page: no contact permissions, customer cust-1's `services`, empty bubbles. */
export function areaRoutes(services: unknown[] = []) {
  return {
    'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
    'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: services, bisnode_account_active: false, bisnode_account: null } }),
    'GET /bubbles/': () => ({ status: 200, body: { pending_cases: 0, pending_customers: 0 } }),
  };
}
