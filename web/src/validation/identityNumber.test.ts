import { describe, expect, it } from 'vitest';
import { isValidIdentityNumber, normalizeIdentityNumber } from './identityNumber';

describe('identity numbers (Luhn, with or without dash and century)', () => {
  it('accepts valid numbers in every accepted shape', () => {
    expect(normalizeIdentityNumber('556036-0793')).toBe('556036-0793');
    expect(normalizeIdentityNumber('5560360793')).toBe('556036-0793');
    expect(normalizeIdentityNumber('19811218-9876')).toBe('811218-9876');
    expect(normalizeIdentityNumber('198112189876')).toBe('811218-9876');
    expect(normalizeIdentityNumber('811218+9876')).toBe('811218-9876');
    expect(isValidIdentityNumber('')).toBe(true);
  });
  it('refuses a mistyped number', () => {
    for (const bad of ['556036-0794', '811218-9875', '55603-60793', '12345', 'abc', '21811218-9876']) {
      expect(isValidIdentityNumber(bad)).toBe(false);
    }
  });
});
