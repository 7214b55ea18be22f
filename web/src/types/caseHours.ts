/** Case hour and additional hour DTOs of the API (spec §3). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type AdditionalHour = Schemas['AdditionalHour'];

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
