import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests, TEST_AUTH: auth } = await import('../../test/renderApp');
const session = await import('../../store/session');
const twoFactor = await import('../../store/twoFactor');

const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee' };
const warning = vi.fn();

describe('code screen: authenticator app', { timeout: 60_000 }, () => {
  const page = pageTests({ warning });
  const render = (path: string) => page.render(path, null);

  it('login answered with method totp: app prompt, no resend; the app code signs in', async () => {
    const { $, type, click, waitFor, path } = await render('/login');
    fake.replies.push(() => ({ status: 200, body: { two_factor_required: true, two_factor_token: 'tf-1', method: 'totp' } }));
    await type('login-email', 'c@example.com');
    await type('login-password', 'Secret-pass-1');
    await click('login-submit');
    await waitFor(() => path() === '/authentication', '/authentication');
    const prompt = await waitFor(() => $('twofa-prompt'), 'prompt');
    expect(prompt.textContent).toBe('Enter the code from your authenticator app.');
    expect($('twofa-resend')).toBeNull();
    expect($('twofa-use-recovery')).not.toBeNull();
    expect(twoFactor.getPendingTwoFactor()).toEqual({ token: 'tf-1', method: 'totp' });

    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/token/2fa/', options: { body: { two_factor_token: 'tf-1', code: '287082' } } });
      return { status: 200, body: auth };
    });
    fake.replies.push(() => ({ status: 200, body: customer }));
    await type('twofa-code', '287082');
    await click('twofa-submit');
    await waitFor(() => path() === '/user/', '/user/');
    expect(session.getState().auth).toEqual(auth);
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it('a used app code is shown inline', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'totp' });
    const { $, type, click, waitFor } = await render('/authentication');
    fake.replies.push(() => ({ status: 400, body: { status: 400, message: 'totp_code_used', errors: {} } }));
    await type('twofa-code', '287082');
    await click('twofa-submit');
    const error = await waitFor(() => $('twofa-error'), 'twofa-error');
    expect(error.textContent).toContain('already been used');
    expect($('twofa-form')).not.toBeNull();
    expect(warning).not.toHaveBeenCalled();
  });

  it('too many wrong app codes end the sign-in: back to /login saying so', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'totp' });
    const { $, type, click, waitFor, path } = await render('/authentication');
    fake.replies.push(() => ({ status: 400, body: { status: 400, message: 'totp_attempts_exceeded', errors: {} } }));
    await type('twofa-code', '111111');
    await click('twofa-submit');
    await waitFor(() => path() === '/login', '/login');
    const notice = await waitFor(() => $('login-notice'), 'login-notice');
    expect(notice.textContent).toContain('Too many wrong codes. Please log in again.');
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it("'Use a recovery code' takes a recovery code (its own rule), sent normalised", async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'totp' });
    const { $, type, click, waitFor, path, container } = await render('/authentication');
    await waitFor(() => $('twofa-form'), 'form');
    await click('twofa-use-recovery');
    await waitFor(() => $('twofa-prompt')?.textContent?.includes('recovery codes you saved'), 'recovery prompt');

    await type('twofa-code', '123456');
    await click('twofa-submit');
    await waitFor(() => container.textContent?.includes('A recovery code has 10 characters'), 'recovery rule');
    expect(fake.calls.filter((c) => c.path === '/token/2fa/')).toHaveLength(0);

    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/token/2fa/', options: { body: { two_factor_token: 'tf-1', code: 'ABCDEFGHJK' } } });
      return { status: 200, body: auth };
    });
    fake.replies.push(() => ({ status: 200, body: customer }));
    await type('twofa-code', ' abcde-fghjk ');
    await click('twofa-submit');
    await waitFor(() => path() === '/user/', '/user/');
    expect(session.getState().auth).toEqual(auth);
  });

  it('an e-mail sign-in keeps the mailed-code text and the resend button', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    const { $, waitFor } = await render('/authentication');
    const prompt = await waitFor(() => $('twofa-prompt'), 'prompt');
    expect(prompt.textContent).toContain('sent a 6-digit code to your e-mail');
    expect($('twofa-resend')).not.toBeNull();
    expect($('twofa-use-recovery')).toBeNull();
  });
});
