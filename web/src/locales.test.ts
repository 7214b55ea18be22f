import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(__dirname, 'locales');

function keys(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [prefix];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function load(lang: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, lang, file), 'utf8'));
}

describe('locales', () => {
  const svFiles = readdirSync(join(dir, 'sv')).sort();
  const enFiles = readdirSync(join(dir, 'en')).sort();

  it('sv and en have the same files', () => {
    expect(enFiles).toEqual(svFiles);
    expect(svFiles.length).toBeGreaterThan(0);
  });

  it.each(svFiles)('%s: sv and en hold exactly the same keys', (file) => {
    expect(keys(load('en', file)).sort()).toEqual(keys(load('sv', file)).sort());
  });

  it.each(svFiles)('%s: no empty strings', (file) => {
    for (const lang of ['sv', 'en']) {
      const flat = keys(load(lang, file));
      const data = load(lang, file);
      for (const k of flat) {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], data);
        expect(typeof v === 'string' && v.trim().length > 0, `${lang}/${file}: ${k}`).toBe(true);
      }
    }
  });

  it('holds the server keys the API sends', () => {
    const server = load('sv', 'server.json');
    for (const k of ['invalid_credentials', 'not_authenticated', 'token_expired', 'forbidden', 'not_found', 'validation_failed', 'internal']) {
      expect(server).toHaveProperty(k);
    }
  });

  it('holds the sign-in, two-factor and password keys', () => {
    const keys = [
      'code_not_correct', 'code_expired', 'code_attempts_exceeded', 'code_format', 'could_not_send_code', 'code_sent',
      'too_many_requests', 'password_too_short', 'password_too_long', 'password_too_common', 'password_too_weak', 'passwords_do_not_match',
      'current_password_wrong', 'link_invalid', 'password_changed', 'recovery_sent', 'password_reset', 'account_inactive',
      'two_factor_enabled', 'two_factor_disabled',
    ];
    for (const lang of ['sv', 'en']) {
      const server = load(lang, 'server.json');
      for (const k of keys) expect(server, `${lang}: ${k}`).toHaveProperty(k);
    }
    expect(load('en', 'server.json')).toMatchObject({
      code_not_correct: 'The code is not correct.',
      code_attempts_exceeded: 'Too many wrong codes. Request a new code.',
      too_many_requests: 'Too many attempts. Please wait a while and try again.',
      recovery_sent: 'If the address has an account, we have sent a link to reset the password.',
    });
  });

  it('holds the authenticator-app (TOTP) keys', () => {
    const keys = [
      'two_factor_session_expired', 'totp_no_resend', 'totp_code_used', 'totp_code_format', 'totp_attempts_exceeded',
      'totp_setup_expired', 'totp_setup_attempts_exceeded', 'totp_already_enabled', 'totp_not_enabled',
      'totp_disable_required', 'password_or_code_required',
    ];
    for (const lang of ['sv', 'en']) {
      const server = load(lang, 'server.json');
      for (const k of keys) expect(server, `${lang}: ${k}`).toHaveProperty(k);
    }
  });
});
