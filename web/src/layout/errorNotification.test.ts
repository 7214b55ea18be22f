import { beforeAll, describe, expect, it, vi } from 'vitest';
import i18n, { loadServerTexts } from '../i18n';
import { collectMessages, describeError, notifyError } from './errorNotification';

describe('error status → notification (spec §8)', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
    // As the API client does beside each call (the server's texts are a chunk of their own).
    await loadServerTexts();
  });

  it('401 shows nothing (the session is cleared instead)', () => {
    expect(describeError(401, { status: 401, message: 'not_authenticated', errors: {} })).toBeNull();
  });

  it('400 lists every message, translated, incl. per-field lists', () => {
    const notice = describeError(400, {
      status: 400,
      message: 'validation_failed',
      errors: { email: ['required', 'invalid_email'], password: ['some raw text'] },
    });
    expect(notice?.title).toBe('Bad request');
    expect(notice?.lines).toEqual([
      'Some fields are invalid.',
      'email: This field is required.',
      'email: Enter a valid e-mail address.',
      'password: some raw text',
    ]);
  });

  it('400 translates the message key and falls back to raw text', () => {
    expect(describeError(400, { status: 400, message: 'invalid_credentials', errors: {} })?.lines).toEqual([
      'Invalid e-mail or password.',
    ]);
    expect(describeError(400, { status: 400, message: 'Something odd happened', errors: {} })?.lines).toEqual([
      'Something odd happened',
    ]);
    expect(describeError(400, { status: 400, message: 'no_such_key_here', errors: {} })?.lines).toEqual(['no_such_key_here']);
  });

  it('400 without any message has a generic line', () => {
    expect(describeError(400, null)?.lines).toEqual(['The request could not be processed.']);
  });

  it('400 also reads nested and legacy shapes', () => {
    expect(collectMessages({ errors: { address: { city: ['required'] } } })).toEqual(['address: This field is required.']);
    expect(collectMessages({ name: ['required'] })).toEqual(['name: This field is required.']);
    expect(collectMessages(['limit_reached'])).toEqual(['Limit has been reached, please upgrade your account.']);
  });

  it('403 Not authorized', () => {
    expect(describeError(403, { status: 403, message: 'forbidden', errors: {} })).toMatchObject({
      title: 'Not authorized',
      lines: ['You are not authorized to do the operation!'],
    });
  });

  it('404 and 406 Not found', () => {
    expect(describeError(404, { status: 404, message: 'not_found', errors: {} })).toMatchObject({
      title: 'Not found',
      lines: ['The requested item could not be found.'],
    });
    expect(describeError(406, {})).toMatchObject({ title: 'Not found', lines: ['User not found.'] });
  });

  it('500 System error', () => {
    expect(describeError(500, { status: 500, message: 'internal', errors: {} })).toMatchObject({
      title: 'System error',
      lines: ['We are really sorry for this inconvenience! Please let us know so that we can fix it!'],
    });
  });

  it('any other status (and network failure) → Error', () => {
    for (const status of [0, 409, 429, 502, 503]) {
      expect(describeError(status, null)).toMatchObject({
        title: 'Error',
        lines: ['Please check your internet connection or try again. Also, you can let us know the issue.'],
      });
    }
  });

  it('409 names what a concurrent request took', async () => {
    expect(describeError(409, { status: 409, message: 'case_already_taken', errors: {} })).toMatchObject({
      title: 'Error',
      lines: ['This case was just taken by another lawyer.'],
    });
    await i18n.changeLanguage('sv');
    expect(describeError(409, { message: 'case_already_taken' })?.lines).toEqual(['Ärendet har precis tagits av en annan jurist.']);
    await i18n.changeLanguage('en');
  });

  it('is translated to Swedish', async () => {
    await i18n.changeLanguage('sv');
    expect(describeError(403, null)?.title).toBe('Ej behörig');
    expect(describeError(400, { message: 'invalid_credentials' })?.lines).toEqual(['Fel e-postadress eller lösenord.']);
    await i18n.changeLanguage('en');
  });

  it('notifyError shows a warning with title and description', () => {
    const warning = vi.fn();
    notifyError({ warning }, 403, null);
    expect(warning).toHaveBeenCalledTimes(1);
    expect(warning.mock.calls[0][0]).toMatchObject({
      title: 'Not authorized',
      description: 'You are not authorized to do the operation!',
    });
    notifyError({ warning }, 401, null);
    expect(warning).toHaveBeenCalledTimes(1);
  });
});
