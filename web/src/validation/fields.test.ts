import { describe, expect, it } from 'vitest';
import {
  isEmail,
  isValidContactPhone,
  isValidEmail,
  isValidPhone,
  isValidPostCode,
  isValidPostCodeAbroad,
  isValidRegistrationNumber,
  normalisePostCode,
  parseSekToOre,
} from './fields';

describe('field rules of spec §5, as the API checks them', () => {
  it('reads post codes with the space Swedes write', () => {
    expect(normalisePostCode('123 45')).toBe('12345');
    expect(normalisePostCode('123\u00a045')).toBe('12345');
    expect(normalisePostCode(' 12345 ')).toBe('12345');
    expect(normalisePostCode('1234')).toBe('1234');
    expect(normalisePostCode('123  45')).toBe('123  45');
    expect(normalisePostCode(undefined)).toBe('');
  });

  it('a Swedish post code is five digits, with or without the space', () => {
    for (const ok of ['11122', '111 22', ' 11122 ']) expect(isValidPostCode(ok), ok).toBe(true);
    for (const bad of ['', '1112', '111222', '1112a', '11 122', '111-22', '111  22']) expect(isValidPostCode(bad), bad).toBe(false);
  });

  it('a post code abroad is up to ten letters, digits, spaces or dashes', () => {
    for (const ok of ['SW1A 1AA', '0150', 'D-10115', '1234567890']) expect(isValidPostCodeAbroad(ok), ok).toBe(true);
    for (const bad of ['', 'SW1A<1AA>', '12345678901', 'ÅÄÖ12']) expect(isValidPostCodeAbroad(bad), bad).toBe(false);
  });

  it('a company registration number is XXXXXX-XXXX', () => {
    expect(isValidRegistrationNumber('123456-7890')).toBe(true);
    expect(isValidRegistrationNumber(' 123456-7890 ')).toBe(true);
    for (const bad of ['1234567890', '12345-67890', '123456-789', '123456-78901', '12345a-7890', '123456 7890']) {
      expect(isValidRegistrationNumber(bad), bad).toBe(false);
    }
  });

  it("a customer's phone: 7–15 digits, optional leading +, spaces and dashes, at most 30 characters", () => {
    for (const ok of ['0701234567', '+46701234567', '070-123 45 67', '1234567', '123456789012345']) expect(isValidPhone(ok), ok).toBe(true);
    for (const bad of ['', '123456', '1234567890123456', '+', '070 123 45 6x', '++46701234567', '-0701234567', '(070) 1234567', '070------------------------------1234']) {
      expect(isValidPhone(bad), bad).toBe(false);
    }
  });

  it("a contact's phone allows parentheses too, as the server does", () => {
    for (const ok of ['(070) 123 45 67', '+46 70-123 45 67', ' 0701234567 ']) expect(isValidContactPhone(ok), ok).toBe(true);
    for (const bad of ['12345', '070abc1234', '46+701234567', '1234567890123456']) expect(isValidContactPhone(bad), bad).toBe(false);
  });

  it("e-mail: the API's shape, and antd's stricter one the staff forms use", () => {
    for (const bad of ['nope', 'a@b', '@b.se', 'a b@c.se', 'a@@c.se', 'a@.se', 'a@se.']) expect(isValidEmail(bad), bad).toBe(false);
    expect(isValidEmail('anna.berg@example.com')).toBe(true);
    expect(isValidEmail(`${'a'.repeat(250)}@b.se`)).toBe(false);
    expect(isEmail('anna.berg@example.com')).toBe(true);
    // A one-letter top-level domain: the server's shape takes it, antd's does not.
    expect(isValidEmail('a@b.c')).toBe(true);
    expect(isEmail('a@b.c')).toBe(false);
    for (const bad of ['nope', 'a@b', 'a b@c.se']) expect(isEmail(bad), bad).toBe(false);
  });

  it('an amount in SEK: at most eight whole digits and two decimals, comma or point', () => {
    expect(parseSekToOre('12 500,50')).toBe(1_250_050);
    expect(parseSekToOre('100')).toBe(10_000);
    expect(parseSekToOre('0.5')).toBe(50);
    expect(parseSekToOre('99999999,99')).toBe(9_999_999_999);
    for (const bad of ['', '1,234', '-5', 'abc', '123456789']) expect(parseSekToOre(bad), bad).toBeNull();
  });
});
