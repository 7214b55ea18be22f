/** Case calls (spec §7 case/...). Shapes follow the API's OpenAPI document. */
import { api } from './client';
import type { Page } from './people';

export type CaseStatus = 'Draft' | 'Waiting' | 'Inprogress' | 'Complete';
export type CaseAction = 'publish' | 'accept' | 'complete' | 'reopen' | 'transfer';
export type CaseListKind = 'my' | 'pending' | 'draft' | 'available' | 'active' | 'closed';

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
  type: { id: number; name: string };
  estimated_hours: number;
  client: string;
  direct_assign_lawyer: string | null;
  lawyer: string | null;
  lawyer_name: string | null;
  counterpart: string;
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
  estimated_hours: string;
  client?: string;
  direct_assign_lawyer?: string | null;
  counterpart?: string;
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
const CREATE_PATH: Record<CreateVia, string> = {
  staff: '/case/create/',
  customer: '/case/create/by/customer/',
  lawyer: '/case/create/by/lawyer/',
};

export const listCases = (status: CaseListKind, cursor: string | null) =>
  api.get<Page<Case>>('/case/list/', { query: { status, cursor: cursor ?? undefined } });
export const getCase = (uid: string) => api.get<CaseDetails>(`/case/${encodeURIComponent(uid)}/`);
export const createCase = (via: CreateVia, body: CasePayload) => api.post<Case>(CREATE_PATH[via], body);
export const updateCase = (uid: string, body: CasePayload) => api.put<Case>(`/case/update/${encodeURIComponent(uid)}/`, body);
export const changeCaseStatus = (uid: string, action: CaseAction) =>
  api.post<Case>(`/case/status/${encodeURIComponent(uid)}/`, { action });
/** Number and subject of a case, for headings (`case/name/{id}/`). */
export interface CaseName {
  uid: string;
  case_number: string;
  subject: string;
  status: CaseStatus;
  customer_name: string;
}
export const caseName = (uid: string) => api.get<CaseName>(`/case/name/${encodeURIComponent(uid)}/`);
export const caseHistory = (uid: string) => api.get<HistoryEntry[]>(`/case/history/${encodeURIComponent(uid)}/`);
export const caseHours = (uid: string) => api.get<CaseHour[]>('/case/hour/list/', { query: { case: uid } });
/** The case's hours as an .xlsx, column titles in `lang`. */
export const hoursWorkbook = (uid: string, lang: string) => api.blob('/case/hour/excel/', { query: { case: uid, lang } });
export const createHour = (body: HourPayload) => api.post<CaseHour>('/case/hour/create/', body);
export const deleteHour = (caseUid: string, id: string) =>
  api.del(`/case/hour/delete/${encodeURIComponent(id)}/`, { query: { case: caseUid } });
export const caseCustomers = (search: string) =>
  api.get<{ uid: string; name: string }[]>('/case/customer/list/', { query: { search } });
export const caseTypes = () => api.get<{ id: number; name: string }[]>('/typeofcase/list/');
