import { CURRENCY, NUMBER_LOCALE } from './config/constants';

/** The active language ('sv' or 'en'): i18n keeps it on <html lang>. */
export function activeLanguage(): 'sv' | 'en' {
  return typeof document !== 'undefined' && document.documentElement.lang?.startsWith('en') ? 'en' : 'sv';
}

/** 'sv' or 'en' for any language tag; the active language when none is given. */
export function langOf(lang?: string | null): 'sv' | 'en' {
  if (!lang) return activeLanguage();
  return lang.startsWith('en') ? 'en' : 'sv';
}

/** The number locale of each interface language: sv-SE (spec §9), British English (point decimals, comma groups). */
const NUMBER_LOCALES = { sv: NUMBER_LOCALE, en: 'en-GB' } as const;

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: 'sv' | 'en', options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}:${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(NUMBER_LOCALES[lang], options);
    formatters.set(key, f);
  }
  return f;
}

/** Not a finite number: shown as a dash, never "NaN". */
const DASH = '–';

/**
 * A number as users read it in their language: sv "1 234,5", en "1,234.5";
 * at most two decimals (or `maxDigits`), grouped unless asked not to.
 */
export function formatNumber(
  n: number | null | undefined,
  opts: { lang?: string; grouping?: boolean; minDigits?: number; maxDigits?: number } = {},
): string {
  if (n == null || !Number.isFinite(n)) return DASH;
  const maxDigits = opts.maxDigits ?? 2;
  return numberFormat(langOf(opts.lang), {
    minimumFractionDigits: Math.min(opts.minDigits ?? 0, maxDigits),
    maximumFractionDigits: maxDigits,
    useGrouping: opts.grouping ?? true,
  }).format(n);
}

/** A decimal without grouping unless asked (hours in tables and inputs): sv 1,5, en 1.5. */
export function formatDecimal(n: number, opts: { lang?: string; grouping?: boolean; maxDigits?: number } = {}): string {
  return formatNumber(n, { ...opts, grouping: opts.grouping ?? false });
}

/**
 * An amount of money, the one way every screen shows it: the currency code
 * (spec §9) and always two decimals; sv "219 213,50 SEK", en "SEK 219,213.50".
 */
export function formatMoney(amount: number | null | undefined, lang?: string): string {
  if (amount == null || !Number.isFinite(amount)) return DASH;
  return numberFormat(langOf(lang), {
    style: 'currency',
    currency: CURRENCY,
    currencyDisplay: 'code',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

/** An amount in SEK (see formatMoney). */
export function formatSek(amount: number | null | undefined, lang?: string): string {
  return formatMoney(amount, lang);
}

/** Öre (integer hundredths) as SEK. */
export function formatOre(ore: number | null | undefined, lang?: string): string {
  return ore == null ? DASH : formatMoney(ore / 100, lang);
}

/** An average rating's figure, one decimal: sv "4,3", en "4.3" (the texts add "av 5" / "of 5"). */
export function formatRating(avg: number | null | undefined, lang?: string): string {
  if (avg == null || !Number.isFinite(avg)) return DASH;
  return formatNumber(avg, { lang, minDigits: 1, maxDigits: 1 });
}

type DateInput = string | number | Date | null | undefined;

function toDate(d: DateInput): Date | null {
  if (d == null || d === '') return null;
  // A bare day is that day wherever the reader is (Date would read it as UTC midnight).
  const day = typeof d === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(d) : null;
  const date = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : d instanceof Date ? d : new Date(d);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A day as both languages show it: ISO 8601 "2026-11-28" (Swedish usage and
 * unambiguous in English), in the browser's time zone; a dash for no date or a
 * bad one, never "Invalid Date".
 */
export function formatDate(d: DateInput): string {
  const date = toDate(d);
  if (!date) return DASH;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A moment to the minute: "2026-11-28 14:05" (see formatDate). */
export function formatDateTime(d: DateInput): string {
  const date = toDate(d);
  if (!date) return DASH;
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A number as Swedes type it, normalised before validation: spaces (also
 * non-breaking and thin ones) between digit groups dropped and a comma
 * decimal made a point: "24 900,50" → "24900.50", "1,5" → "1.5". Text that is
 * not a plain number is returned trimmed, for the validator to refuse.
 */
export function normaliseNumber(text: string | number | null | undefined): string {
  if (text == null) return '';
  const t = String(text).trim().replace(/[\s\u00a0\u202f\u2009]+/g, ' ');
  // Grouped digits: "24 900", "1 234 567,5" (groups of three after the first).
  let grouped = /^-?\d{1,3}( \d{3})+([.,]\d+)?$/.test(t) ? t.replace(/ /g, '') : t;
  // English grouping with a point decimal ("24,900.50"); "24,900" alone stays a Swedish decimal.
  if (/^-?\d{1,3}(,\d{3})+\.\d+$/.test(grouped)) grouped = grouped.replace(/,/g, '');
  return /^-?\d+,\d+$/.test(grouped) ? grouped.replace(',', '.') : grouped;
}

/**
 * A decimal typed with a comma or point, spaces between groups allowed, at
 * most `maxDigits` decimals (two); null when it is not such a number.
 */
export function parseDecimal(text: string | number | null | undefined, maxDigits = 2): number | null {
  const t = normaliseNumber(text);
  if (!new RegExp(`^\\d+(\\.\\d{1,${maxDigits}})?$`).test(t)) return null;
  return Number(t);
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
