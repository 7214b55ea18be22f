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

/**
 * What the case form sends: the API's CaseRequest, but hours as typed (they may carry a comma decimal, "1,5",
 * which the server parses) and the type still null when none was chosen (the server answers it as required).
 */
export type CasePayload = Omit<Schemas['CaseRequest'], 'type' | 'estimated_hours'> & {
  type: number | null;
  estimated_hours: string;
};

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
