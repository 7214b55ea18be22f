import { describe, expect, it } from 'vitest';
import * as R from './checks';

describe('registration rules (spec §5), the same keys as the API', () => {
  it('required fields', () => {
    expect(R.required('')).toBe('required');
    expect(R.required('   ')).toBe('required');
    expect(R.required(undefined)).toBe('required');
    expect(R.required('Anna')).toBeNull();
  });

  it('e-mail', () => {
    expect(R.email('')).toBe('required');
    for (const bad of ['nope', 'a@b', '@b.se', 'a b@c.se', 'a@@c.se', 'a@.se', 'a@se.']) expect(R.email(bad), bad).toBe('invalid_email');
    expect(R.email('anna.berg@example.com')).toBeNull();
  });

  it('company registration number is XXXXXX-XXXX', () => {
    expect(R.registrationNumber('')).toBe('required');
    expect(R.registrationNumber('123456-7890')).toBeNull();
    for (const bad of ['1234567890', '12345-67890', '123456-789', '123456-78901', '12345a-7890', '123456 7890']) {
      expect(R.registrationNumber(bad), bad).toBe('invalid_registration_number');
    }
  });

  it('post code is 5 digits, the space Swedes write accepted', () => {
    expect(R.postCode('')).toBe('required');
    expect(R.postCode('11122')).toBeNull();
    expect(R.postCode('111 22')).toBeNull();
    expect(R.postCode(' 11122')).toBeNull();
    for (const bad of ['1112', '111222', '1112a', '11 122', '111-22']) expect(R.postCode(bad), bad).toBe('invalid_post_code');
  });

  it('phone: digits, optional leading +, spaces and dashes, 7–15 digits', () => {
    for (const ok of ['0701234567', '+46701234567', '070-123 45 67', '+46 70 123 45 67', '1234567', '123456789012345']) {
      expect(R.phone(ok), ok).toBeNull();
    }
    for (const bad of ['123456', '1234567890123456', '+', '070 123 45 6x', '++46701234567', '-0701234567', '(070) 1234567', '070------------------------------1234']) {
      expect(R.phone(bad), bad).toBe('invalid_phone');
    }
    expect(R.phone(' ')).toBe('required');
  });

  it('country: Sweden (1) only', () => {
    expect(R.country(1)).toBeNull();
    expect(R.country(2)).toBe('invalid_country');
    expect(R.country(undefined)).toBe('required');
  });

  it('password length and the accepted checkboxes', () => {
    expect(R.password('')).toBe('required');
    expect(R.password('short')).toBe('password_too_short');
    expect(R.password('x'.repeat(129))).toBe('password_too_long');
    expect(R.password('Long-enough-1')).toBeNull();
    expect(R.accepted('terms_not_agreed')(false)).toBe('terms_not_agreed');
    expect(R.accepted('privacy_not_agreed')(undefined)).toBe('privacy_not_agreed');
    expect(R.accepted('terms_not_agreed')(true)).toBeNull();
  });

  it('the confirmation: required, then equal to the password', () => {
    expect(R.confirmation('Long-enough-1')('')).toBe('required');
    expect(R.confirmation('Long-enough-1')('Long-enough-2')).toBe('passwords_do_not_match');
    expect(R.confirmation('Long-enough-1')('Long-enough-1')).toBeNull();
  });
});
