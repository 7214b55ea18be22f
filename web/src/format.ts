import { CURRENCY, NUMBER_LOCALE } from './config/constants';

const sek = new Intl.NumberFormat(NUMBER_LOCALE, {
  style: 'currency',
  currency: CURRENCY,
  currencyDisplay: 'code',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

/** The active language ('sv' or 'en'): i18n keeps it on <html lang>. */
function activeLanguage(): string {
  return typeof document !== 'undefined' && document.documentElement.lang?.startsWith('en') ? 'en' : 'sv';
}

/**
 * A decimal as users read it in their language (issue 14): sv 1,5, en 1.5;
 * at most two decimals, no grouping unless asked.
 */
export function formatDecimal(n: number, opts: { lang?: string; grouping?: boolean; maxDigits?: number } = {}): string {
  const lang = opts.lang ?? activeLanguage();
  return new Intl.NumberFormat(lang.startsWith('en') ? 'en-GB' : 'sv-SE', {
    maximumFractionDigits: opts.maxDigits ?? 2,
    useGrouping: opts.grouping ?? false,
  }).format(n);
}

/** An amount in SEK as the spec shows prices (sv-SE, currency code), the one way every screen shows money. */
export function formatSek(amount: number): string {
  return sek.format(amount);
}

/** Öre (integer hundredths) as SEK. */
export function formatOre(ore: number): string {
  return formatSek(ore / 100);
}

/** A named-list entry (case type, knowledge sector, department) in the reader's language: English falls back to Swedish. */
export function namedIn(entry: { name: string; name_en?: string | null }, lang: string = activeLanguage()): string {
  return lang.startsWith('en') && entry.name_en?.trim() ? entry.name_en : entry.name;
}

const countryNames = new Map<string, Intl.DisplayNames>();

/**
 * A country code (ISO 3166-1 alpha-2) named in the reader's language
 * ('SE' → Sverige / Sweden). Any other stored text (older cases) is shown as it is.
 */
export function countryName(code: string | null | undefined, lang: string = activeLanguage()): string {
  const c = (code ?? '').trim();
  if (!/^[A-Z]{2}$/.test(c)) return c;
  const key = lang.startsWith('en') ? 'en' : 'sv';
  let names = countryNames.get(key);
  if (!names) {
    names = new Intl.DisplayNames([key], { type: 'region', fallback: 'code' });
    countryNames.set(key, names);
  }
  return names.of(c) ?? c;
}

export interface AddressParts {
  address_1?: string | null;
  address_2?: string | null;
  post_code?: string | null;
  city?: string | null;
  country?: string | null;
}

/**
 * Spec §5 address formatting, the one place it is done: nothing when line 1
 * is missing; otherwise line 1 (and line 2), then post code, city and country
 * appended with commas, empty parts skipped, no trailing comma.
 */
export function formatAddress(a: AddressParts | null | undefined): string {
  const line1 = a?.address_1?.trim();
  if (!a || !line1) return '';
  return [line1, a.address_2, a.post_code, a.city, a.country]
    .map((p) => (p ?? '').trim())
    .filter((p) => p !== '')
    .join(', ')
    .replace(/,\s*$/, '');
}
