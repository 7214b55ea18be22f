/** Spec §4 case status display: the one mapping every case screen uses. */
export interface StatusChip {
  /** Key in the `cases` namespace. */
  labelKey: 'status.available' | 'status.active' | 'status.closed' | 'status.pending' | 'status.na';
  color: 'orange' | 'blue' | 'default' | 'red';
}

export function caseStatusChip(status: string | null | undefined): StatusChip {
  switch (status) {
    case 'Waiting':
      return { labelKey: 'status.available', color: 'orange' };
    case 'Inprogress':
      return { labelKey: 'status.active', color: 'blue' };
    case 'Complete':
      // antd's grey tag is the default colour.
      return { labelKey: 'status.closed', color: 'default' };
    case 'Draft':
      return { labelKey: 'status.pending', color: 'red' };
    default:
      return { labelKey: 'status.na', color: 'default' };
  }
}

/** Hours typed with a comma or dot decimal, at most two decimals; null when not a number. */
export function parseHours(text: string | number | null | undefined): number | null {
  if (text == null) return null;
  const t = String(text).trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  return Number(t);
}

/** Hours shown the Swedish way ("1,5"). */
export function formatHours(h: number, lang = 'sv'): string {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sv-SE', { maximumFractionDigits: 2 }).format(h);
}
