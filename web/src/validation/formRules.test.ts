import type { RuleObject } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import { contactPhoneRule, emailRule, identityNumberRule, minRule, phoneRule, postCodeAbroadRule, postCodeRule, registrationNumberRule } from './formRules';

/** What the rule's validator says of `value`: null when it passes, else its message. */
async function verdict(rule: RuleObject, value: unknown): Promise<string | null> {
  try {
    await rule.validator!(rule, value, () => {});
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('antd form rules: each refuses with its message, and lets an empty value pass', () => {
  const cases: Array<[string, RuleObject, string[], string[]]> = [
    ['post code', postCodeRule('post code'), ['11122', '111 22'], ['1112', '111-22']],
    ['post code abroad', postCodeAbroadRule('post code abroad'), ['SW1A 1AA'], ['SW1A<1AA>']],
    ['registration number', registrationNumberRule('registration number'), ['123456-7890'], ['1234567890', ' 123456-7890']],
    ['e-mail', emailRule('e-mail'), ['anna@example.se'], ['anna@', 'a@b.c']],
    ['phone', phoneRule('phone'), ['070-123 45 67'], ['(070) 1234567']],
    ['contact phone', contactPhoneRule('contact phone'), ['(070) 123 45 67', '   '], ['12345']],
    ['identity number', identityNumberRule('identity number'), ['556036-0793', '198112189876'], ['556036-0794']],
  ];
  for (const [message, rule, good, bad] of cases) {
    it(message, async () => {
      expect(await verdict(rule, '')).toBeNull();
      expect(await verdict(rule, undefined)).toBeNull();
      for (const v of good) expect(await verdict(rule, v), v).toBeNull();
      for (const v of bad) expect(await verdict(rule, v), v).toBe(message);
    });
  }

  it('a lower bound on numbers', () => {
    expect(minRule(0.01, 'rate')).toEqual({ type: 'number', min: 0.01, message: 'rate' });
  });
});
