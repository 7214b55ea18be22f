/** Where the hour screens of spec §2 live (admin and lawyer only); null for other roles. */
import { resolveRole, ROLE_PREFIX } from '../../auth/roles';
import type { SessionUser } from '../../types/session';
import { parseHours } from './status';

export interface HourPaths {
  /** cases/case-hour/update/{id}: the route names the entry; the case travels as `?case=`. */
  hourUpdate: (caseUid: string, id: string) => string;
  additionalUpdate: (caseUid: string, id: string) => string;
  additionalHistory: (caseUid: string) => string;
}

export function hourPaths(user: SessionUser | null | undefined): HourPaths | null {
  const role = resolveRole(user);
  if (role !== 'admin' && role !== 'lawyer') return null;
  const p = ROLE_PREFIX[role];
  const c = (caseUid: string) => `?case=${encodeURIComponent(caseUid)}`;
  return {
    hourUpdate: (caseUid, id) => `${p}cases/case-hour/update/${encodeURIComponent(id)}${c(caseUid)}`,
    additionalUpdate: (caseUid, id) => `${p}cases/additional_hour/update/${encodeURIComponent(id)}${c(caseUid)}`,
    additionalHistory: (caseUid) => `${p}cases/history-additional/${encodeURIComponent(caseUid)}`,
  };
}

/** A stored number as the form shows it: comma decimal ("1,5"), no grouping. */
export const hoursInput = (n: number | null | undefined) => (n == null ? '' : String(n).replace('.', ','));

/** A required total of hours: a number with a comma or dot decimal, at least 0,01 (spec §5, §9). */
export function totalHourRules(t: (key: string) => string) {
  return [
    { required: true, message: t('validation.required') },
    {
      validator: (_: unknown, v: string | undefined) => {
        if (!v) return Promise.resolve();
        const n = parseHours(v);
        if (n === null) return Promise.reject(new Error(t('validation.invalid')));
        return n >= 0.01 ? Promise.resolve() : Promise.reject(new Error(t('validation.min')));
      },
    },
  ];
}
