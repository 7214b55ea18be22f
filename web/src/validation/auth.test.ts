import type { FormInstance, FormRule } from 'antd';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n, { loadServerTexts, loadTexts } from '../i18n';
import {
  confirmPasswordRules,
  isTwoFactorCode,
  newPasswordRules,
  normalizeCode,
  passwordLengthProblem,
  recoveryCodeProblem,
  recoveryCodeRules,
  twoFactorCodeProblem,
  twoFactorCodeRules,
} from './auth';

/** Run antd rules the way Form does: required first, then validators. Returns the first message or null. */
async function check(rules: FormRule[], value: unknown, values: Record<string, unknown> = {}): Promise<string | null> {
  const form = { getFieldValue: (name: string) => values[name] } as unknown as FormInstance;
  for (const r of rules) {
    const rule = typeof r === 'function' ? r(form) : r;
    if (rule.required && (value == null || value === '')) return String(rule.message);
    if (rule.validator) {
      try {
        await rule.validator(rule, value, () => {});
      } catch (e) {
        return (e as Error).message;
      }
    }
  }
  return null;
}

describe('two-factor code (spec §5: 6-digit 2FA code)', () => {
  it.each(['123456', '000000', '999999', ' 123 456 ', '123\t456'])('accepts %j', (v) => {
    expect(isTwoFactorCode(v)).toBe(true);
  });

  it.each(['', '12345', '1234567', '12345a', 'abcdef', '12-456', '１２３４５６', '٠١٢٣٤٥', '12345.', null, undefined, 123456])(
    'refuses %j',
    (v) => {
      expect(isTwoFactorCode(v)).toBe(false);
    },
  );

  it('normalises by removing spaces only', () => {
    expect(normalizeCode(' 12 34 56 ')).toBe('123456');
    expect(normalizeCode('12-34')).toBe('12-34');
    expect(normalizeCode(undefined)).toBe('');
  });

  describe('form rules', () => {
    beforeAll(async () => {
      await i18n.changeLanguage('en');
      // The account's and the server's texts are chunks of their own, loaded with the pages that use them.
      await Promise.all([loadTexts(['account']), loadServerTexts()]);
    });
    const t = i18n.t.bind(i18n);

    it('required, then exactly 6 digits', async () => {
      expect(await check(twoFactorCodeRules(t), '')).toBe('Please enter the 6-digit code');
      expect(await check(twoFactorCodeRules(t), '12345')).toBe('The code must be exactly 6 digits');
      expect(await check(twoFactorCodeRules(t), '1234567')).toBe('The code must be exactly 6 digits');
      expect(await check(twoFactorCodeRules(t), '123456')).toBeNull();
    });

    it('the plain checks (the two-factor page) say what the rules say', async () => {
      expect(twoFactorCodeProblem('')).toBe('twofa.codeRequired');
      expect(twoFactorCodeProblem('12a456')).toBe('twofa.codeInvalid');
      expect(twoFactorCodeProblem(' 123 456')).toBeNull();
      expect(recoveryCodeProblem(undefined)).toBe('twofa.recoveryRequired');
      expect(recoveryCodeProblem('ABCDE-FGHI1')).toBe('twofa.recoveryInvalid');
      expect(recoveryCodeProblem(' abcde-fghjk ')).toBeNull();
      expect(await check(recoveryCodeRules(t), '')).toBe('Please enter a recovery code');
      expect(await check(recoveryCodeRules(t), '123456')).toBe('A recovery code has 10 characters, like ABCDE-FGHJK');
      expect(await check(recoveryCodeRules(t), 'abcde-fghjk')).toBeNull();
    });

    it('is translated in Swedish', async () => {
      await i18n.changeLanguage('sv');
      expect(await check(twoFactorCodeRules(t), 'abc')).toBe('Koden ska bestå av exakt 6 siffror');
      await i18n.changeLanguage('en');
    });
  });
});

describe('new password rules (8–128 characters, confirmation matches)', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    await Promise.all([loadTexts(['account']), loadServerTexts()]);
  });
  const t = i18n.t.bind(i18n);

  it('counts characters, not UTF-16 units', () => {
    expect(passwordLengthProblem('1234567')).toBe('password_too_short');
    expect(passwordLengthProblem('12345678')).toBeNull();
    expect(passwordLengthProblem('å'.repeat(128))).toBeNull();
    expect(passwordLengthProblem('😀'.repeat(128))).toBeNull();
    expect(passwordLengthProblem('a'.repeat(129))).toBe('password_too_long');
  });

  it('new password', async () => {
    expect(await check(newPasswordRules(t), '')).toBe('Please enter a new password');
    expect(await check(newPasswordRules(t), 'short')).toBe('The password must be at least 8 characters long.');
    expect(await check(newPasswordRules(t), 'x'.repeat(129))).toBe('The password can be at most 128 characters long.');
    expect(await check(newPasswordRules(t), 'Long-enough-1')).toBeNull();
  });

  it('confirmation', async () => {
    const rules = confirmPasswordRules(t, 'new_password');
    expect(await check(rules, '', { new_password: 'Long-enough-1' })).toBe('Please confirm the new password');
    expect(await check(rules, 'Long-enough-2', { new_password: 'Long-enough-1' })).toBe('The passwords do not match.');
    expect(await check(rules, 'Long-enough-1', { new_password: 'Long-enough-1' })).toBeNull();
  });
});
