/**
 * antd Form rules from the field checks (fields.ts, identityNumber.ts), one per rule of spec §5, each with the
 * message its form shows. Empty values pass: a field that must be filled lists `required` beside its rule.
 */
import type { RuleObject } from 'antd/es/form';
import { isEmail, isValidContactPhone, isValidPhone, isValidPostCode, isValidPostCodeAbroad, REGISTRATION_NUMBER_PATTERN } from './fields';
import { isValidIdentityNumber } from './identityNumber';

const isEmpty = (value: unknown) => value == null || value === '';

/** A rule that lets an empty value pass and refuses one `ok` does not hold for, with `message`. */
function checked(ok: (value: string) => boolean, message: string): RuleObject {
  return {
    validator: (_rule, value: unknown) =>
      isEmpty(value) || ok(String(value)) ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}

/** A Swedish post code: 5 digits, "123 45" too (the field's `normalize` stores normalisePostCode's 5 digits). */
export const postCodeRule = (message: string) => checked(isValidPostCode, message);
/** A post code abroad: up to ten letters, digits, spaces or dashes. */
export const postCodeAbroadRule = (message: string) => checked(isValidPostCodeAbroad, message);
/** A company registration number: XXXXXX-XXXX, as typed (the staff form sends it untrimmed). */
export const registrationNumberRule = (message: string) => checked((v) => REGISTRATION_NUMBER_PATTERN.test(v), message);
/** An e-mail address (fields.ts `isEmail`). */
export const emailRule = (message: string) => checked(isEmail, message);
/** A customer's phone number: 7–15 digits, an optional leading +, spaces and dashes between. */
export const phoneRule = (message: string) => checked(isValidPhone, message);
/** A contact's phone number: the same, parentheses allowed too. */
export const contactPhoneRule = (message: string) => checked((v) => v.trim() === '' || isValidContactPhone(v), message);
/** An optional Swedish organisation or identity number with a right check digit. */
export const identityNumberRule = (message: string) => checked(isValidIdentityNumber, message);
/** A number of at least `min` (hours, hourly rates, days); empty passes. */
export const minRule = (min: number, message: string): RuleObject => ({ type: 'number', min, message });
