/**
 * The registration rules of spec §5 on the client, the same as the API's
 * (`shared/src/domain/customer.rs`): each check returns the server's message
 * key (translated under `server`) or null, so client and server say the same
 * (the registration page's plain form checks its fields with them).
 */
import { passwordLengthProblem } from '../../../auth/validation';
import { normalisePostCode } from '../../../format';

/** Company registration number: XXXXXX-XXXX. */
export const REGISTRATION_NUMBER_PATTERN = /^\d{6}-\d{4}$/;
/** Post code: exactly 5 digits once the space Swedes write ("123 45") is dropped (normalisePostCode). */
export const POST_CODE_PATTERN = /^\d{5}$/;
/** Country list: Sweden only (value 1). */
export const COUNTRY_SWEDEN = 1;

export type Check = (value: unknown) => string | null;

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const blank = (v: unknown) => text(v).trim() === '';

export const required: Check = (v) => (blank(v) ? 'required' : null);

/** Same shape check as the API's `is_valid_email`. */
export function isValidEmail(raw: string): boolean {
  const e = raw.trim();
  const at = e.indexOf('@');
  if (at <= 0) return false;
  const domain = e.slice(at + 1);
  return (
    e.length <= 254 &&
    domain.includes('.') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !/\s/.test(e) &&
    !domain.includes('@')
  );
}

export const email: Check = (v) => (blank(v) ? 'required' : isValidEmail(text(v)) ? null : 'invalid_email');

export const isValidRegistrationNumber = (v: string) => REGISTRATION_NUMBER_PATTERN.test(v.trim());
export const registrationNumber: Check = (v) =>
  blank(v) ? 'required' : isValidRegistrationNumber(text(v)) ? null : 'invalid_registration_number';

export const isValidPostCode = (v: string) => POST_CODE_PATTERN.test(normalisePostCode(v));
export const postCode: Check = (v) => (text(v) === '' ? 'required' : isValidPostCode(text(v)) ? null : 'invalid_post_code');

/** Digits with an optional leading +, spaces and dashes between; 7–15 digits; at most 30 characters. */
export function isValidPhone(raw: string): boolean {
  const t = raw.trim();
  if (t.length > 30) return false;
  const rest = t.startsWith('+') ? t.slice(1) : t;
  if (!/^\d[\d -]*$/.test(rest)) return false;
  const digits = rest.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}
export const phone: Check = (v) => (blank(v) ? 'required' : isValidPhone(text(v)) ? null : 'invalid_phone');

export const country: Check = (v) => (v == null || v === '' || v === 0 ? 'required' : Number(v) === COUNTRY_SWEDEN ? null : 'invalid_country');

export const password: Check = (v) => (text(v) === '' ? 'required' : passwordLengthProblem(text(v)));

export const accepted =
  (key: 'terms_not_agreed' | 'privacy_not_agreed'): Check =>
  (v) =>
    v === true ? null : key;

/** Confirmation: required and equal to the password. */
export const confirmation =
  (password: unknown): Check =>
  (v) =>
    text(v) === '' ? 'required' : v === password ? null : 'passwords_do_not_match';
