import { CURRENCY, NUMBER_LOCALE } from './config/constants';

const sek = new Intl.NumberFormat(NUMBER_LOCALE, {
  style: 'currency',
  currency: CURRENCY,
  currencyDisplay: 'code',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

/** An amount in SEK as the spec shows prices (sv-SE, currency code). */
export function formatSek(amount: number): string {
  return sek.format(amount);
}

/** Öre (integer hundredths) as SEK. */
export function formatOre(ore: number): string {
  return formatSek(ore / 100);
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
