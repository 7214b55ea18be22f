import { describe, expect, it } from 'vitest';
import { formatAddress, formatOre, formatSek } from './format';

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

  it('formats SEK with the sv-SE locale and the currency code', () => {
    expect(nbsp(formatSek(1500))).toBe('1 500 SEK');
    expect(nbsp(formatSek(99.5))).toBe('99,5 SEK');
    expect(nbsp(formatOre(123456))).toBe('1 234,56 SEK');
  });
});

describe('data in the reader language (issue 14)', () => {
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
