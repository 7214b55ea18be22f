import { beforeAll, describe, expect, it, vi } from 'vitest';
import i18n, { loadServerTexts } from '../i18n';
import { ApiError } from './errors';
import { applyServerErrors, isInlineError, serverMessages, splitServerErrors } from './formErrors';

const err = (status: number, body: ConstructorParameters<typeof ApiError>[1]) => new ApiError(status, body);

describe('server errors on forms', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    // As the API client does beside each call (the server's texts are a chunk of their own).
    await loadServerTexts();
  });

  it('maps field errors onto the form fields, translated, without the generic summary', () => {
    const e = err(400, {
      status: 400,
      message: 'validation_failed',
      errors: { old_password: ['current_password_wrong'], new_password: ['password_too_common'] },
    });
    expect(splitServerErrors(e, ['old_password', 'new_password', 'confirm_password'])).toEqual({
      fields: [
        { name: 'old_password', errors: ['The current password is wrong.'] },
        { name: 'new_password', errors: ['This password is too common. Please choose another one.'] },
      ],
      other: [],
    });
  });

  it('keeps every message of a field, deduplicated', () => {
    const e = err(400, { message: 'validation_failed', errors: { email: ['required', 'invalid_email', 'required'] } });
    expect(splitServerErrors(e, ['email']).fields).toEqual([
      { name: 'email', errors: ['This field is required.', 'Enter a valid e-mail address.'] },
    ]);
  });

  it('errors of fields the form does not have, and non-field errors, are left for an Alert', () => {
    const e = err(400, {
      message: 'validation_failed',
      errors: { token: ['link_invalid'], non_field_errors: ['invalid'], password: ['password_too_short'] },
    });
    const out = splitServerErrors(e, ['password']);
    expect(out.fields).toEqual([{ name: 'password', errors: ['The password must be at least 8 characters long.'] }]);
    expect(out.other).toEqual(['The URL you are trying is invalid or expired.', 'Invalid value.']);
  });

  it('aliases rename server fields to form fields', () => {
    const e = err(400, { message: 'validation_failed', errors: { password: ['password_too_short'] } });
    expect(splitServerErrors(e, ['new_password'], { password: 'new_password' }).fields).toEqual([
      { name: 'new_password', errors: ['The password must be at least 8 characters long.'] },
    ]);
  });

  it('a specific message key is shown even next to field errors, once', () => {
    const e = err(400, { message: 'passwords_do_not_match', errors: { confirm_password: ['passwords_do_not_match'] } });
    expect(splitServerErrors(e, ['confirm_password']).other).toEqual([]);
    const e2 = err(400, { message: 'code_expired', errors: {} });
    expect(splitServerErrors(e2, ['code'])).toEqual({ fields: [], other: ['The code has expired. Request a new code.'] });
  });

  it('a generic message alone is still shown', () => {
    expect(serverMessages(err(400, { message: 'validation_failed', errors: {} }))).toEqual(['Some fields are invalid.']);
  });

  it('unknown keys are shown as sent', () => {
    expect(serverMessages(err(429, { message: 'Slow down', errors: {} }))).toEqual(['Slow down']);
  });

  it('serverMessages lists the message and every field message without field names', () => {
    const e = err(400, { message: 'validation_failed', errors: { code: ['code_format'] } });
    expect(serverMessages(e)).toEqual(['The code must be exactly 6 digits.']);
    expect(serverMessages(err(429, { status: 429, message: 'too_many_requests', errors: {} }))).toEqual([
      'Too many attempts. Please wait a while and try again.',
    ]);
  });

  it('anything but an ApiError gives nothing', () => {
    expect(splitServerErrors(new Error('x'), ['a'])).toEqual({ fields: [], other: [] });
    expect(splitServerErrors(err(400, null), ['a'])).toEqual({ fields: [], other: [] });
  });

  it('applyServerErrors sets the fields on the form and returns the rest', () => {
    const form = { setFields: vi.fn() };
    const e = err(400, {
      message: 'validation_failed',
      errors: { old_password: ['current_password_wrong'], other_field: ['required'] },
    });
    expect(applyServerErrors(form, e, ['old_password'])).toEqual(['This field is required.']);
    expect(form.setFields).toHaveBeenCalledWith([{ name: 'old_password', errors: ['The current password is wrong.'] }]);
  });

  it('applyServerErrors falls back to one generic line', () => {
    const form = { setFields: vi.fn() };
    expect(applyServerErrors(form, err(400, null), ['a'])).toEqual(['The request could not be processed.']);
    expect(form.setFields).not.toHaveBeenCalled();
  });

  it('isInlineError picks the statuses a form shows itself', () => {
    expect(isInlineError(err(400, null))).toBe(true);
    expect(isInlineError(err(429, null))).toBe(true);
    expect(isInlineError(err(500, null))).toBe(false);
    expect(isInlineError(err(401, null), [401])).toBe(true);
    expect(isInlineError(new Error('x'))).toBe(false);
  });

  it('Swedish', async () => {
    await i18n.changeLanguage('sv');
    const e = err(400, { message: 'validation_failed', errors: { old_password: ['current_password_wrong'] } });
    expect(splitServerErrors(e, ['old_password']).fields[0].errors).toEqual(['Det nuvarande lösenordet är fel.']);
    await i18n.changeLanguage('en');
  });
});
