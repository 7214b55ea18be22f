/** Figures as the statistics pages show them: hours from hundredths, SEK (sv-SE, spec §9) from öre. */

export function isHours(key: string): boolean {
  return key.startsWith('hours');
}

export function isMoney(key: string): boolean {
  return key.startsWith('revenue') || key.startsWith('rate');
}

export function formatHours(hundredths: number, lang: string): string {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sv-SE', { minimumFractionDigits: 0, maximumFractionDigits: 2 }).format(hundredths / 100);
}

/** SEK with sv-SE formatting whatever the interface language (the firm's currency and locale). */
export function formatSek(ore: number): string {
  return new Intl.NumberFormat('sv-SE', { style: 'currency', currency: 'SEK', currencyDisplay: 'code', minimumFractionDigits: 0, maximumFractionDigits: 2 }).format(ore / 100);
}

export function formatCell(column: string, value: string | number, lang: string): string {
  if (typeof value !== 'number') return String(value);
  if (isHours(column)) return formatHours(value, lang);
  if (isMoney(column)) return formatSek(value);
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sv-SE').format(value);
}

/** Chart values in units (hours, SEK). */
export function unitValue(metric: string, value: number): number {
  return isHours(metric) || isMoney(metric) ? value / 100 : value;
}

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
