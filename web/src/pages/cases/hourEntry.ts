// Its own module, not status.ts: the dashboards' first load takes status.ts and never sends an hour entry.
import type { Dayjs } from 'dayjs';
import type { HourPayload } from '../../types/cases';

/** An hour entry's form values (case details' new entry, the entry's edit page): the hours as typed. */
export interface HourValues {
  hour?: string;
  non_billable_hour?: string;
  rattsskydd_hour?: string;
  date: Dayjs;
  time?: string;
  description?: string;
  is_invoiced?: boolean;
  /** Admin only: whose hours (no default: the admin must pick). */
  lawyer?: string;
}

/** An hour entry's request body from its form: an hour field left empty is 0, the date as YYYY-MM-DD. */
export function hourPayload(caseUid: string, v: HourValues): HourPayload {
  return {
    case_uid: caseUid,
    hour: v.hour || '0',
    non_billable_hour: v.non_billable_hour || '0',
    rattsskydd_hour: v.rattsskydd_hour || '0',
    date: v.date.format('YYYY-MM-DD'),
    time: v.time ?? '',
    description: v.description ?? '',
    is_invoiced: !!v.is_invoiced,
    lawyer: v.lawyer,
  };
}
