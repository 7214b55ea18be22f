import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests, TEST_AUTH: auth } = await import('../../test/renderApp');
const session = await import('../../store/session');

const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee' };
const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const URI = `otpauth://totp/Legal%20Services:c%40example.com?secret=${SECRET}&issuer=Legal%20Services&algorithm=SHA1&digits=6&period=30`;
const CODES = ['ABCDE-FGHJK', 'BCDEF-GHJKM', 'CDEFG-HJKMN'];
const warning = vi.fn();

describe('two-factor settings: authenticator app', { timeout: 180_000 }, () => {
  const page = pageTests({ warning });
  const render = (status: object) =>
    page.render('/user/update-2fa/', customer, { 'GET /2fa/status/': () => ({ status: 200, body: status }) });

  it('enrols: QR code and secret, a wrong code inline, then the recovery codes once; the session continues', async () => {
    const { $, type, click, waitFor, path, container } = await render({ enabled: false, method: 'email', recovery_codes_left: 0 });
    await waitFor(() => $('twofa-status')?.dataset.enabled === 'false', 'status off');

    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/2fa/totp/setup/' });
      return { status: 200, body: { otpauth_uri: URI, secret: SECRET } };
    });
    await click('twofa-method-totp');
    await waitFor(() => $('totp-setup'), 'setup panel');
    expect($('totp-qr')).not.toBeNull();
    expect($('totp-qr')!.querySelector('svg')).not.toBeNull();
    expect($('totp-secret')!.dataset.secret).toBe(SECRET);
    expect($('totp-secret')!.textContent!.replace(/\s/g, '')).toBe(SECRET);

    // Client rule first: 6 digits, no call.
    await type('totp-confirm-code', '12');
    await click('totp-confirm-submit');
    await waitFor(() => container.textContent?.includes('The code must be exactly 6 digits'), 'code rule');
    expect(fake.calls.filter((c) => c.path === '/2fa/totp/confirm/')).toHaveLength(0);

    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/2fa/totp/confirm/', options: { body: { code: '000000' } } });
      return { status: 400, body: { status: 400, message: 'validation_failed', errors: { code: ['code_not_correct'] } } };
    });
    await type('totp-confirm-code', '000000');
    await click('totp-confirm-submit');
    await waitFor(() => container.textContent?.includes('not correct') || container.textContent?.includes('incorrect'), 'code_not_correct');
    expect(warning).not.toHaveBeenCalled();
    expect($('totp-recovery')).toBeNull();

    const fresh = { ...auth, access_token: 'a2', refresh_token: 'r2' };
    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/2fa/totp/confirm/', options: { body: { code: '287082' } } });
      return { status: 200, body: { ...fresh, method: 'totp', recovery_codes: CODES } };
    });
    await type('totp-confirm-code', '287 082');
    await click('totp-confirm-submit');
    const list = await waitFor(() => $('totp-recovery-codes'), 'recovery codes');
    expect(Array.from(list.querySelectorAll('li')).map((li) => li.textContent)).toEqual(CODES);
    expect($('totp-recovery')!.textContent).toContain('shown only this once');
    expect($('totp-recovery-copy')).not.toBeNull();
    expect($('totp-recovery-download')).not.toBeNull();
    expect(session.getState().auth).toEqual(fresh);
    expect($('twofa-status')!.dataset.method).toBe('totp');
    expect(path()).toBe('/user/update-2fa/');

    await click('totp-recovery-done');
    await waitFor(() => $('totp-recovery') === null, 'codes hidden');
    expect($('totp-recovery-left')!.dataset.count).toBe('3');
    expect($('twofa-status')!.textContent).toBe('On (authenticator app)');
  });

  it('the recovery codes can be copied', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { $, type, click, waitFor } = await render({ enabled: true, method: 'email', recovery_codes_left: 0 });
    await waitFor(() => $('twofa-status')?.dataset.method === 'email', 'status email');
    fake.replies.push(() => ({ status: 200, body: { otpauth_uri: URI, secret: SECRET } }));
    await click('twofa-method-totp');
    fake.replies.push(() => ({ status: 200, body: { ...auth, method: 'totp', recovery_codes: CODES } }));
    await type('totp-confirm-code', '123456');
    await click('totp-confirm-submit');
    await waitFor(() => $('totp-recovery-codes'), 'recovery codes');
    await click('totp-recovery-copy');
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n') + '\n');
  });

  it('shows the recovery codes left; removing the app needs the password or a code', async () => {
    const { $, type, click, waitFor, container } = await render({ enabled: true, method: 'totp', recovery_codes_left: 4 });
    const left = await waitFor(() => $('totp-recovery-left'), 'codes left');
    expect(left.textContent).toBe('You have 4 unused recovery codes left.');

    // Choosing Off opens the removal form; no call yet.
    await click('twofa-method-off');
    await waitFor(() => $('totp-disable'), 'disable panel');
    expect(fake.calls.filter((c) => c.path.startsWith('/2fa/totp/') || c.path === '/2fa/toggle-activation/')).toHaveLength(0);
    await click('totp-disable-submit');
    await waitFor(() => $('totp-disable-error')?.textContent?.includes('Enter your password or a code'), 'proof required');

    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/2fa/totp/disable/', options: { body: { password: 'Wrong-pass-1' } } });
      return { status: 400, body: { status: 400, message: 'validation_failed', errors: { password: ['current_password_wrong'] } } };
    });
    await type('totp-disable-password', 'Wrong-pass-1');
    await click('totp-disable-submit');
    await waitFor(() => container.textContent?.includes('The current password is wrong.'), 'password error');
    expect(warning).not.toHaveBeenCalled();

    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/2fa/totp/disable/', options: { body: { code: 'ABCDE-FGHJK' } } });
      return { status: 200, body: { enabled: false, method: 'email', recovery_codes_left: 0 } };
    });
    await type('totp-disable-password', '');
    await type('totp-disable-code', 'ABCDE-FGHJK');
    await click('totp-disable-submit');
    await waitFor(() => $('twofa-status')?.dataset.enabled === 'false', 'off');
    expect($('totp-disable')).toBeNull();
    expect(session.getState().auth).toEqual(auth);
  });

  it('switching from the app to the e-mail code removes the app, then turns the e-mail code on (log in again)', async () => {
    const { $, type, click, waitFor, path } = await render({ enabled: true, method: 'totp', recovery_codes_left: 10 });
    await waitFor(() => $('twofa-status')?.dataset.method === 'totp', 'status totp');
    await click('twofa-method-email');
    await waitFor(() => $('totp-disable'), 'disable panel');
    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/2fa/totp/disable/', options: { body: { password: 'Right-pass-1' } } });
      return { status: 200, body: { enabled: false, method: 'email', recovery_codes_left: 0 } };
    });
    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/2fa/toggle-activation/', options: { body: { enabled: true } } });
      return { status: 200, body: { enabled: true, method: 'email', recovery_codes_left: 0 } };
    });
    await type('totp-disable-password', 'Right-pass-1');
    await click('totp-disable-submit');
    await waitFor(() => path() === '/login', '/login');
    expect(session.getState().auth).toBeNull();
  });
});
