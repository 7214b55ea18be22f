/**
 * Client-side rules of spec §5 used by the sign-in and password forms: the
 * 6-digit two-factor code and new passwords (8–128 characters, confirmation
 * must match). The checks are pure; the antd rule builders take `t`.
 */
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { TWO_FACTOR_CODE_LENGTH } from '../config/constants';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './bounds';

export const TWO_FACTOR_CODE_PATTERN = new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`);

/** What the user typed, without spaces (codes are often pasted as '123 456'). */
export function normalizeCode(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, '') : '';
}

/** Spec §5: exactly 6 digits (ASCII 0–9), after removing spaces. */
export function isTwoFactorCode(value: unknown): boolean {
  return TWO_FACTOR_CODE_PATTERN.test(normalizeCode(value));
}

/** Length in characters (code points), as the API counts it. */
export function passwordLength(value: string): number {
  return Array.from(value).length;
}

/** The server key for what is wrong with a new password's length, or null. */
export function passwordLengthProblem(value: string): 'password_too_short' | 'password_too_long' | null {
  const n = passwordLength(value);
  if (n < PASSWORD_MIN_LENGTH) return 'password_too_short';
  if (n > PASSWORD_MAX_LENGTH) return 'password_too_long';
  return null;
}

const isEmpty = (value: unknown) => value == null || value === '';

/** What is wrong with a two-factor code, as a text key of `account`, or null: required, exactly 6 digits. */
export function twoFactorCodeProblem(value: unknown): 'twofa.codeRequired' | 'twofa.codeInvalid' | null {
  return isEmpty(value) ? 'twofa.codeRequired' : isTwoFactorCode(value) ? null : 'twofa.codeInvalid';
}

/** antd rules from a problem function (its keys are texts of `account`): required (its message: the empty value's problem), then the rest. */
function problemRules(t: TFunction, problem: (value: unknown) => string | null): FormRule[] {
  return [
    { required: true, message: t(problem('') ?? '', { ns: 'account' }) },
    {
      validator: (_rule, value) => {
        const key = isEmpty(value) ? null : problem(value);
        return key ? Promise.reject(new Error(t(key, { ns: 'account' }))) : Promise.resolve();
      },
    },
  ];
}

/** Two-factor code: required, exactly 6 digits. */
export function twoFactorCodeRules(t: TFunction): FormRule[] {
  return problemRules(t, twoFactorCodeProblem);
}

/** A new password: required, 8–128 characters. */
export function newPasswordRules(t: TFunction): FormRule[] {
  return [
    { required: true, message: t('account:password.newRequired') },
    {
      validator: (_rule, value) => {
        if (isEmpty(value)) return Promise.resolve();
        const problem = passwordLengthProblem(String(value));
        return problem ? Promise.reject(new Error(t(problem, { ns: 'server' }))) : Promise.resolve();
      },
    },
  ];
}

/** The confirmation: required and equal to the field `passwordField` (list that field in `dependencies`). */
export function confirmPasswordRules(t: TFunction, passwordField: string): FormRule[] {
  return [
    { required: true, message: t('account:password.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        isEmpty(value) || value === getFieldValue(passwordField)
          ? Promise.resolve()
          : Promise.reject(new Error(t('passwords_do_not_match', { ns: 'server' }))),
    }),
  ];
}

/** Form.Item `normalize` for e-mail fields: no surrounding spaces (pasted or autofilled addresses). */
export function trimValue(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** Recovery codes of the authenticator-app factor: 10 characters, shown as XXXXX-XXXXX. */
const RECOVERY_CODE_PATTERN = /^[2-9A-HJKMNP-Z]{10}$/;

/** A recovery code as typed, without spaces and dashes, in upper case (the server normalises the same way). */
export function normalizeRecoveryCode(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[\s-]+/g, '').toUpperCase() : '';
}

export function isRecoveryCode(value: unknown): boolean {
  return RECOVERY_CODE_PATTERN.test(normalizeRecoveryCode(value));
}

/** What is wrong with a recovery code, as a text key of `account`, or null: required, 10 characters of the code alphabet. */
export function recoveryCodeProblem(value: unknown): 'twofa.recoveryRequired' | 'twofa.recoveryInvalid' | null {
  return isEmpty(value) ? 'twofa.recoveryRequired' : isRecoveryCode(value) ? null : 'twofa.recoveryInvalid';
}

export function recoveryCodeRules(t: TFunction): FormRule[] {
  return problemRules(t, recoveryCodeProblem);
}
