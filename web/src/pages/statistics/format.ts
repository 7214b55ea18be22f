/** Figures as the statistics pages show them: hours from hundredths, SEK from öre, in the reader's language. */
import { formatNumber, formatOre } from '../../format';


export function isHours(key: string): boolean {
  return key.startsWith('hours');
}

export function isMoney(key: string): boolean {
  return key.startsWith('revenue') || key.startsWith('rate');
}

export function formatHours(hundredths: number, lang: string): string {
  return formatNumber(hundredths / 100, { lang });
}

/** SEK from öre (see formatMoney: currency code, two decimals). */
export function formatSek(ore: number, lang?: string): string {
  return formatOre(ore, lang);
}

export function formatCell(column: string, value: string | number, lang: string): string {
  if (typeof value !== 'number') return String(value);
  if (isHours(column)) return formatHours(value, lang);
  if (isMoney(column)) return formatSek(value, lang);
  return formatNumber(value, { lang });
}

/** Chart values in units (hours, SEK). */
export function unitValue(metric: string, value: number): number {
  return isHours(metric) || isMoney(metric) ? value / 100 : value;
}

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
