import { describe, expect, it } from 'vitest';
import {
  formatAddress,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatOre,
  formatRating,
  formatSek,
  normaliseNumber,
  parseDecimal,
} from './format';

const nbsp = (s: string) => s.replace(/\s/g, ' ');

describe('formatting', () => {
  it('formats addresses as spec §5 says', () => {
    expect(formatAddress(null)).toBe('');
    expect(formatAddress({ address_1: '', city: 'Lund' })).toBe('');
    expect(formatAddress({ address_1: '  ', post_code: '22100' })).toBe('');
    expect(formatAddress({ address_1: 'Storgatan 1', post_code: '11122', city: 'Stockholm', country: 'Sverige' })).toBe(
      'Storgatan 1, 11122, Stockholm, Sverige',
    );
    expect(formatAddress({ address_1: 'Storgatan 1', address_2: 'Box 4', city: 'Lund' })).toBe('Storgatan 1, Box 4, Lund');
    expect(formatAddress({ address_1: 'Storgatan 1,', country: '' })).toBe('Storgatan 1');
  });

  it('formats money with the currency code and two decimals in each language', () => {
    expect(nbsp(formatMoney(219213.5, 'sv'))).toBe('219 213,50 SEK');
    expect(nbsp(formatMoney(219213.5, 'en'))).toBe('SEK 219,213.50');
    expect(nbsp(formatSek(1500, 'sv'))).toBe('1 500,00 SEK');
    expect(nbsp(formatSek(99.5, 'sv'))).toBe('99,50 SEK');
    expect(nbsp(formatOre(123456, 'sv'))).toBe('1 234,56 SEK');
    expect(nbsp(formatOre(123456, 'en'))).toBe('SEK 1,234.56');
    expect(formatMoney(Number.NaN, 'sv')).toBe('–');
    expect(formatOre(null, 'en')).toBe('–');
  });

  it('follows the page language when none is given', () => {
    document.documentElement.lang = 'en';
    expect(nbsp(formatSek(10.5))).toBe('SEK 10.50');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    document.documentElement.lang = 'sv';
    expect(nbsp(formatSek(10.5))).toBe('10,50 SEK');
    expect(nbsp(formatNumber(1234.5))).toBe('1 234,5');
  });

  it('formats numbers and ratings with the language decimal', () => {
    expect(nbsp(formatNumber(24900.5, { lang: 'sv' }))).toBe('24 900,5');
    expect(formatNumber(24900.5, { lang: 'en' })).toBe('24,900.5');
    expect(formatNumber(1.005, { lang: 'en', grouping: false })).toBe('1.01');
    expect(formatNumber(undefined, { lang: 'en' })).toBe('–');
    expect(formatNumber(Number.POSITIVE_INFINITY, { lang: 'sv' })).toBe('–');
    expect(formatRating(4.3, 'sv')).toBe('4,3');
    expect(formatRating(4, 'en')).toBe('4.0');
    expect(formatRating(null, 'en')).toBe('–');
  });

  it('formats dates and times one way (ISO), a dash for none or a bad one', () => {
    expect(formatDate('2026-12-18')).toBe('2026-12-18');
    expect(formatDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(formatDateTime(new Date(2026, 10, 28, 9, 5))).toBe('2026-11-28 09:05');
    expect(formatDate(null)).toBe('–');
    expect(formatDate('not a date')).toBe('–');
    expect(formatDateTime('')).toBe('–');
  });

  it('reads numbers as Swedes type them', () => {
    expect(normaliseNumber('24 900,50')).toBe('24900.50');
    expect(normaliseNumber('24\u00a0900,50')).toBe('24900.50');
    expect(normaliseNumber('1 234 567')).toBe('1234567');
    expect(normaliseNumber(' 1,5 ')).toBe('1.5');
    expect(normaliseNumber('24,900.50')).toBe('24900.50');
    expect(normaliseNumber('2 49')).toBe('2 49');
    expect(normaliseNumber('abc')).toBe('abc');
    expect(parseDecimal('24 900,50')).toBe(24900.5);
    expect(parseDecimal('1.5')).toBe(1.5);
    expect(parseDecimal('1,555')).toBeNull();
    expect(parseDecimal('12 34')).toBeNull();
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal(null)).toBeNull();
  });
});

describe('data in the reader language', () => {
  it('names a named-list entry in English when it has an English name, else in Swedish', async () => {
    const { namedIn } = await import('./format');
    const type = { name: 'Hyresrätt', name_en: 'Tenancy law' };
    expect(namedIn(type, 'sv')).toBe('Hyresrätt');
    expect(namedIn(type, 'en')).toBe('Tenancy law');
    expect(namedIn({ name: 'Hyresrätt', name_en: '  ' }, 'en')).toBe('Hyresrätt');
    expect(namedIn({ name: 'Hyresrätt' }, 'en')).toBe('Hyresrätt');
  });
  it('names a country code in the reader language and keeps any other stored text', async () => {
    const { countryName } = await import('./format');
    expect(countryName('SE', 'sv')).toBe('Sverige');
    expect(countryName('SE', 'en')).toBe('Sweden');
    expect(countryName('NO', 'sv')).toBe('Norge');
    expect(countryName('Atlantis', 'en')).toBe('Atlantis');
    expect(countryName('', 'en')).toBe('');
  });
});
