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
