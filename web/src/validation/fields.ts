/**
 * The field rules of spec §5 as pure checks, the same as the API's (shared/src/domain/customer/fields.rs, case/form.rs):
 * post codes, phone numbers, e-mail addresses, company registration numbers, amounts. The server-key checks
 * (checks.ts) and the antd form rules (formRules.ts) are built from these.
 */

/** A Swedish post code as people write it ("123 45") made the five digits the forms check and store ("12345"). */
export function normalisePostCode(text: string | null | undefined): string {
  const t = (text ?? '').trim();
  return /^\d{3}[\s\u00a0]?\d{2}$/.test(t) ? t.replace(/[\s\u00a0]/, '') : t;
}

/** Post code: exactly 5 digits once the space Swedes write ("123 45") is dropped; the server stores the 5 digits. */
export const POST_CODE_PATTERN = /^\d{5}$/;
export const isValidPostCode = (v: string) => POST_CODE_PATTERN.test(normalisePostCode(v));

/** A post code abroad (a case's address outside Sweden): up to ten letters, digits, spaces or dashes. */
export const isValidPostCodeAbroad = (v: string) => /^[A-Za-z0-9 -]{1,10}$/.test(v);

/** Company registration number: XXXXXX-XXXX. */
export const REGISTRATION_NUMBER_PATTERN = /^\d{6}-\d{4}$/;
export const isValidRegistrationNumber = (v: string) => REGISTRATION_NUMBER_PATTERN.test(v.trim());

/** A customer's phone (customer.rs `is_valid_phone`): digits with an optional leading +, spaces and dashes between; 7–15 digits; at most 30 characters. */
export function isValidPhone(raw: string): boolean {
  const t = raw.trim();
  if (t.length > 30) return false;
  const rest = t.startsWith('+') ? t.slice(1) : t;
  if (!/^\d[\d -]*$/.test(rest)) return false;
  const digits = rest.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}

/**
 * A contact's phone (shared/src/domain/contact.rs `normalize_phone`): digits with an optional leading +, spaces,
 * dashes and parentheses; 7–15 digits. Looser than a customer's (isValidPhone), as the server is.
 */
export function isValidContactPhone(raw: string): boolean {
  const t = raw.trim();
  const digits = t.replace(/\D/g, '').length;
  return /^\+?[0-9 ()-]*$/.test(t) && digits >= 7 && digits <= 15;
}

/** Same shape check as the API's `is_valid_email`: what registration checks before it sends. */
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

/**
 * An e-mail address as antd's `type: 'email'` rule accepts it (async-validator's pattern): the staff forms'
 * rule (formRules.ts `emailRule`) and the login form's, stricter than the server's shape (a top-level domain
 * of at least two letters).
 */
const EMAIL_PATTERN =
  /^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+\.)+[a-zA-Z\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]{2,}))$/;

export function isEmail(value: string): boolean {
  return value.length <= 320 && EMAIL_PATTERN.test(value);
}

/** "12 500,50" (SEK, comma or point, at most two decimals, at most 8 whole digits) as öre; null when it is not an amount. */
export function parseSekToOre(raw: string): number | null {
  const t = raw.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(t)) return null;
  return Math.round(Number(t) * 100);
}
