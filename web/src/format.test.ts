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
