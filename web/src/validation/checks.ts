/**
 * The field rules of spec §5 as checks that return the server's message key (translated under `server`) or
 * null, so client and server say the same: for plain forms that check their fields without antd's Form (the
 * registration page). The rules themselves are fields.ts's.
 */
import { passwordLengthProblem } from './auth';
import { isValidEmail, isValidPhone, isValidPostCode, isValidRegistrationNumber } from './fields';

/** Country list: Sweden only (value 1). */
export const COUNTRY_SWEDEN = 1;

export type Check = (value: unknown) => string | null;

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));
const blank = (v: unknown) => text(v).trim() === '';

export const required: Check = (v) => (blank(v) ? 'required' : null);

export const email: Check = (v) => (blank(v) ? 'required' : isValidEmail(text(v)) ? null : 'invalid_email');

export const registrationNumber: Check = (v) =>
  blank(v) ? 'required' : isValidRegistrationNumber(text(v)) ? null : 'invalid_registration_number';

export const postCode: Check = (v) => (text(v) === '' ? 'required' : isValidPostCode(text(v)) ? null : 'invalid_post_code');

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
