import { formatDecimal, langOf, parseDecimal } from '../../format';
import { HOURS_MIN } from '../../validation/bounds';
/** Spec §4 case status display (the one mapping every case screen uses) and hours as the forms show and check them (spec §5, §9). */
export interface StatusChip {
  /** Key in the `cases` namespace. */
  labelKey: 'status.available' | 'status.active' | 'status.closed' | 'status.pending' | 'status.withdrawn' | 'status.na';
  color: 'orange' | 'blue' | 'default' | 'red';
}

export function caseStatusChip(status: string | null | undefined): StatusChip {
  // The stored word in any case ('Waiting', 'waiting'), as the API and history carry it.
  const word = (status ?? '').trim().toLowerCase();
  const stored = { waiting: 'Waiting', inprogress: 'Inprogress', in_progress: 'Inprogress', complete: 'Complete', draft: 'Draft', withdrawn: 'Withdrawn' }[word];
  switch (stored) {
    case 'Waiting':
      return { labelKey: 'status.available', color: 'orange' };
    case 'Inprogress':
      return { labelKey: 'status.active', color: 'blue' };
    case 'Complete':
      // antd's grey tag is the default colour.
      return { labelKey: 'status.closed', color: 'default' };
    case 'Draft':
      return { labelKey: 'status.pending', color: 'red' };
    // A draft its customer took back (no spec status; not 'N/A', which would say nothing).
    case 'Withdrawn':
      return { labelKey: 'status.withdrawn', color: 'default' };
    default:
      return { labelKey: 'status.na', color: 'default' };
  }
}

/** Hours typed with a comma or dot decimal, at most two decimals; null when not a number. */
export function parseHours(text: string | number | null | undefined): number | null {
  return parseDecimal(text);
}

/** Hours in the user's language (sv "1,5", en "1.5"). */
export function formatHours(h: number, lang?: string): string {
  return formatDecimal(h, { lang, grouping: true });
}

/** A stored number as the form shows it in the reader's language: sv "1,5", en "1.5"; no grouping. */
export const hoursInput = (n: number | null | undefined, lang?: string) =>
  n == null ? '' : langOf(lang) === 'en' ? String(n) : String(n).replace('.', ',');

/** A required total of hours: a number with a comma or dot decimal, at least 0,01 (spec §5, §9). */
export function totalHourRules(t: (key: string) => string) {
  return [
    { required: true, message: t('validation.required') },
    {
      validator: (_: unknown, v: string | undefined) => {
        if (!v) return Promise.resolve();
        const n = parseHours(v);
        if (n === null) return Promise.reject(new Error(t('validation.invalid')));
        return n >= HOURS_MIN ? Promise.resolve() : Promise.reject(new Error(t('validation.min')));
      },
    },
  ];
}
