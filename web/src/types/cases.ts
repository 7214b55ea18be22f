/** Case DTOs of the API (spec §3 Case, case hour). */

export type CaseStatus = 'Draft' | 'Waiting' | 'Inprogress' | 'Complete' | 'Withdrawn';

export type CaseAction = 'publish' | 'accept' | 'complete' | 'reopen' | 'transfer' | 'withdraw';

export interface CaseAddress {
  address_1: string;
  city: string;
  country: string;
  post_code: string;
}

export interface Case {
  uid: string;
  case_number: string;
  status: CaseStatus;
  customer: string;
  customer_name: string;
  address: CaseAddress;
  subject: string;
  description: string;
  type: { id: number; name: string; name_en?: string | null };
  /** The knowledge sector staff or the lawyer filed the case under (the legal statistics count by it). */
  knowledge_sector?: { id: number; name: string; name_en?: string | null } | null;
  estimated_hours: number;
  client: string;
  direct_assign_lawyer: string | null;
  lawyer: string | null;
  lawyer_name: string | null;
  counterpart: string;
  counterpart_identity_number?: string | null;
  disqualification_control: boolean;
  short_internal_description: string;
  start_date: string | null;
  deadline: string | null;
  contact_person: string;
  note: string;
  created_at: string;
  updated_at: string;
}

export interface CaseDetails extends Case {
  actions: CaseAction[];
  can_edit: boolean;
  can_enter_hours: boolean;
}

export interface CaseHour {
  id: string;
  case_uid: string;
  lawyer: string;
  lawyer_name: string;
  hour: number;
  non_billable_hour: number;
  rattsskydd_hour: number;
  date: string;
  time: string;
  is_invoiced: boolean;
  service: number | null;
  description: string;
}

export interface HistoryEntry {
  at: string;
  by: string;
  by_name: string;
  field: string;
  before: string | null;
  after: string | null;
}

/** What the case form sends; hours may carry a comma decimal ("1,5"). */
export interface CasePayload {
  customer?: string;
  subject: string;
  description: string;
  type: number | null;
  knowledge_sector?: number | null;
  estimated_hours: string;
  client?: string;
  direct_assign_lawyer?: string | null;
  counterpart?: string;
  counterpart_identity_number?: string | null;
  disqualification_control?: boolean;
  short_internal_description?: string;
  start_date?: string | null;
  deadline?: string | null;
  contact_person?: string;
  note?: string;
  address?: Partial<CaseAddress>;
}

export interface HourPayload {
  case_uid: string;
  lawyer?: string;
  hour: string;
  non_billable_hour?: string;
  rattsskydd_hour?: string;
  date: string;
  time?: string;
  is_invoiced?: boolean;
  description?: string;
}

export type CreateVia = 'staff' | 'customer' | 'lawyer';

/** Number and subject of a case, for headings (`case/name/{id}/`). */
export interface CaseName {
  uid: string;
  case_number: string;
  subject: string;
  status: CaseStatus;
  customer_name: string;
}
