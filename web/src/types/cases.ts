/** Case DTOs of the API (spec §3 Case, case hour). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type CaseStatus = Schemas['CaseStatus'];

export type CaseAction = 'publish' | 'accept' | 'complete' | 'reopen' | 'transfer' | 'withdraw';

export type CaseAddress = Schemas['CaseAddress'];

export type Case = Schemas['Case'];

export type CaseDetails = Schemas['CaseDetails'];

export type CaseHour = Schemas['CaseHour'];

export type HistoryEntry = Schemas['HistoryEntry'];

export type Follower = Schemas['Follower'];

export type Followers = Schemas['Followers'];

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
export type CaseName = Schemas['CaseName'];
