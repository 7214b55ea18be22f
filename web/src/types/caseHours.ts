/** Case hour and additional hour DTOs of the API (spec §3). */

export interface AdditionalHour {
  id: string;
  case_uid: string;
  lawyer: string;
  lawyer_name: string;
  /** "YYYY-MM". */
  month: string;
  total_hour: number;
  is_invoiced: boolean;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface AdditionalHourPayload {
  case_uid: string;
  /** Admin only: the lawyer the hours are for (spec §6). */
  lawyer?: string;
  month: string;
  /** May carry a comma decimal ("1,5"). */
  total_hour: string;
  is_invoiced?: boolean;
  description?: string;
}

export interface MassUpdatePayload {
  case_uid: string;
  ids: string[];
  is_invoiced: boolean;
}
