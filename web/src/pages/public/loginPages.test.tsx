import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { auth, customer, session, twoFactor, signedOutPages, submitCodeSignsIn } = await import('./signInTestSetup');
const { warning, page, render } = signedOutPages();

describe('login pages', { timeout: 180_000 }, () => {
  it('login with two-factor on → /authentication; a wrong code is shown inline; the right one signs in', async () => {
    const { $, type, click, waitFor, path } = await render('/login');
    fake.replies.push((c) => {
      expect(c.path).toBe('/token/');
      return { status: 200, body: { two_factor_required: true, two_factor_token: 'tf-1', method: 'email' } };
    });
    await type('login-email', 'c@example.com');
    await type('login-password', 'Secret-pass-1');
    await click('login-submit');
    await waitFor(() => path() === '/authentication', '/authentication');
    await waitFor(() => $('twofa-form'), 'twofa-form');
    expect(twoFactor.getPendingTwoFactor()?.token).toBe('tf-1');
    expect(session.getState().auth).toBeNull();

    // Client rule: exactly 6 digits (no call made).
    await type('twofa-code', '123');
    await click('twofa-submit');
    await waitFor(() => page.ui!.container.textContent?.includes('The code must be exactly 6 digits'), 'code rule');
    expect(fake.calls).toHaveLength(1);

    fake.replies.push((c) => {
      expect(c.options?.body).toEqual({ two_factor_token: 'tf-1', code: '000000' });
      return { status: 400, body: { status: 400, message: 'code_not_correct', errors: {} } };
    });
    await type('twofa-code', '000000');
    await click('twofa-submit');
    const error = await waitFor(() => $('twofa-error'), 'twofa-error');
    expect(error.textContent).toContain('The code is not correct.');
    expect(warning).not.toHaveBeenCalled();

    fake.replies.push((c) => {
      expect(c.path).toBe('/resend/2fa/');
      expect(c.options?.body).toEqual({ two_factor_token: 'tf-1' });
      return { status: 200, body: { message: 'code_sent', two_factor_token: 'tf-2', two_factor_required: true, method: 'email' } };
    });
    await click('twofa-resend');
    await waitFor(() => $('twofa-info')?.textContent?.includes('A new code has been sent'), 'code_sent');
    expect($('twofa-error')).toBeNull();
    expect(twoFactor.getPendingTwoFactor()?.token).toBe('tf-2');

    fake.replies.push(
      (c) => {
        expect(c.path).toBe('/token/2fa/');
        expect(c.options?.body).toEqual({ two_factor_token: 'tf-2', code: '654321' });
        return { status: 200, body: auth };
      },
      (c) => {
        expect(c.path).toBe('/profile/');
        return { status: 200, body: customer };
      },
    );
    await type('twofa-code', ' 654 321');
    await submitCodeSignsIn({ click, waitFor, path });
  });

  it("login checks its fields as antd's Form did: required on submit, the e-mail as typed, announced and linked; no call until valid", async () => {
    const { $, type, click, waitFor } = await render('/login');
    await click('login-submit');
    const text = () => page.ui!.container.textContent ?? '';
    await waitFor(() => text().includes('Please enter your e-mail') && text().includes('Please enter your password'), 'required');
    const email = $('login-email') as HTMLInputElement;
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const help = document.getElementById(email.getAttribute('aria-describedby')!);
    expect(help?.getAttribute('role')).toBe('alert');
    expect(help?.textContent).toBe('Please enter your e-mail');
    expect(document.querySelector('label[for="login_email"]')?.textContent).toBe('E-mail');

    await type('login-email', 'not-an-address');
    await waitFor(() => text().includes('Please enter a valid e-mail'), 'invalid');
    // Spaces around a pasted address are dropped as it is typed (antd's normalize).
    await type('login-email', ' c@example.com ');
    await waitFor(() => !text().includes('Please enter a valid e-mail') && !text().includes('Please enter your e-mail'), 'valid');
    expect(($('login-email') as HTMLInputElement).value).toBe('c@example.com');
    expect(email.getAttribute('aria-invalid')).toBeNull();
    await click('login-submit');
    expect(fake.calls).toHaveLength(0);
  });

  it('the remembered origin survives the code step', async () => {
    const { type, click, waitFor, path, $ } = await render('/user/cases/');
    await waitFor(() => path() === '/login', '/login');
    fake.replies.push(() => ({ status: 200, body: { two_factor_required: true, two_factor_token: 'tf-1', method: 'email' } }));
    await type('login-email', 'c@example.com');
    await type('login-password', 'Secret-pass-1');
    await click('login-submit');
    await waitFor(() => $('twofa-form'), 'twofa-form');
    fake.replies.push(
      () => ({ status: 200, body: auth }),
      () => ({ status: 200, body: customer }),
    );
    await type('twofa-code', '654321');
    await click('twofa-submit');
    await waitFor(() => path() === '/user/cases/', '/user/cases/');
  });

  it('login without two-factor goes straight to the dashboard', async () => {
    const { type, click, waitFor, path } = await render('/login');
    fake.replies.push(
      () => ({ status: 200, body: auth }),
      () => ({ status: 200, body: customer }),
    );
    await type('login-email', 'c@example.com');
    await type('login-password', 'Secret-pass-1');
    await click('login-submit');
    await waitFor(() => path() === '/user/', '/user/');
    // Sign-in is these two calls; what the dashboard then loads is its own business.
    expect(fake.calls.map((c) => c.path).slice(0, 2)).toEqual(['/token/', '/profile/']);
  });

  it('a rate-limited login is shown inline', async () => {
    const { $, type, click, waitFor } = await render('/login');
    fake.replies.push(() => ({ status: 429, body: { status: 429, message: 'too_many_requests', errors: {} } }));
    await type('login-email', 'c@example.com');
    await type('login-password', 'Secret-pass-1');
    await click('login-submit');
    const error = await waitFor(() => $('login-error'), 'login-error');
    expect(error.textContent).toContain('Too many attempts');
    expect(warning).not.toHaveBeenCalled();
  });

  it("an unknown address shows Page Not Found and names it in the browser's tab, in the reader's language", async () => {
    const { $, waitFor } = await render('/no-such-page');
    await waitFor(() => $('not-found-title'), 'not-found-title');
    await waitFor(() => document.title === 'Page Not Found | Legal Services' || null, `the tab's title (now "${document.title}")`);
  });

  it('/authentication without a pending sign-in goes to /login', async () => {
    const { $, waitFor, path } = await render('/authentication');
    await waitFor(() => path() === '/login', '/login');
    await waitFor(() => $('login-form'), 'login-form');
  });

  it('an expired two-factor token (401) asks to log in again', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-old', method: 'email' });
    const { $, type, click, waitFor } = await render('/authentication');
    fake.replies.push(() => ({ status: 401, body: { status: 401, message: 'not_authenticated', errors: {} } }));
    await type('twofa-code', '123456');
    await click('twofa-submit');
    const error = await waitFor(() => $('twofa-error'), 'twofa-error');
    expect(error.textContent).toContain('log in again');
    expect($('twofa-form')).toBeNull();
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it('a resend refused with two_factor_session_expired goes back to /login saying so', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-old', method: 'email' });
    const { $, click, waitFor, path } = await render('/authentication');
    fake.replies.push((c) => {
      expect(c.path).toBe('/resend/2fa/');
      return { status: 400, body: { status: 400, message: 'two_factor_session_expired', errors: {} } };
    });
    await click('twofa-resend');
    await waitFor(() => path() === '/login', '/login');
    const notice = await waitFor(() => $('login-notice'), 'login-notice');
    expect(notice.textContent).toContain('Your login has expired. Please log in again.');
    expect($('login-form')).not.toBeNull();
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
    expect(warning).not.toHaveBeenCalled();
  });

  it('a code refused with two_factor_session_expired also goes back to /login', async () => {
    const { $, waitFor, path } = await page.submitRefusedCode({ token: 'tf-old', method: 'email' }, 'two_factor_session_expired', '123456');
    await waitFor(() => path() === '/login', '/login');
    await waitFor(() => $('login-notice'), 'login-notice');
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it('a code_expired answer to a resend stays on the page (a new code helps there)', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    const { $, click, waitFor, path } = await render('/authentication');
    fake.replies.push(() => ({ status: 400, body: { status: 400, message: 'code_expired', errors: {} } }));
    await click('twofa-resend');
    const error = await waitFor(() => $('twofa-error'), 'twofa-error');
    expect(error.textContent).toContain('The code has expired');
    expect(path()).toBe('/authentication');
    expect($('twofa-form')).not.toBeNull();
  });

  it('forgot password: shows recovery_sent', async () => {
    const { $, type, click, waitFor } = await render('/login');
    await click('login-forgot');
    await waitFor(() => $('recover-form'), 'recover-form');
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/password/recover/', options: { body: { email: 'c@example.com' } } });
      return { status: 200, body: { message: 'recovery_sent' } };
    });
    await type('recover-email', ' c@example.com ');
    await click('recover-submit');
    const sent = await waitFor(() => $('recover-sent'), 'recover-sent');
    expect(sent.textContent).toBe('If the address has an account, we have sent a link to reset the password.');
  });

  it('recovery link: sets the password, then the done button leads to /login', async () => {
    const { $, type, click, waitFor, path } = await render('/recovery/account?token=abc');
    await waitFor(() => $('confirm-form'), 'confirm-form');
    await type('confirm-password', 'New-pass-2026-xyz');
    await type('confirm-password2', 'New-pass-2026-xy');
    await click('confirm-submit');
    await waitFor(() => page.ui!.container.textContent?.includes('The passwords do not match.'), 'mismatch');
    expect(fake.calls).toHaveLength(0);

    fake.replies.push((c) => {
      expect(c).toMatchObject({
        path: '/password/recover/confirm/',
        options: { body: { token: 'abc', password: 'New-pass-2026-xyz', confirm_password: 'New-pass-2026-xyz' } },
      });
      return { status: 400, body: { status: 400, message: 'validation_failed', errors: { password: ['password_too_common'] } } };
    });
    await type('confirm-password2', 'New-pass-2026-xyz');
    await click('confirm-submit');
    await waitFor(() => page.ui!.container.textContent?.includes('This password is too common'), 'field error');
    expect($('confirm-error')).toBeNull();

    fake.replies.push(() => ({ status: 200, body: { message: 'password_reset' } }));
    await click('confirm-submit');
    await click('confirm-done');
    await waitFor(() => path() === '/login', '/login');
  });

  it('recovery link: link_invalid and a missing token show the invalid URL screen', async () => {
    // An activation link the server still calls valid on opening, used up by the time it is submitted.
    fake.routes.set('POST /customer/activation/check/', () => ({ status: 200, body: { valid: true } }));
    const first = await render('/confirm/account?token=used');
    fake.replies.push((c) => {
      expect(c.path).toBe('/customer/activation/');
      return { status: 400, body: { status: 400, message: 'link_invalid', errors: {} } };
    });
    await first.type('confirm-password', 'New-pass-2026-xyz');
    await first.type('confirm-password2', 'New-pass-2026-xyz');
    await first.click('confirm-submit');
    const screen = await first.waitFor(() => first.$('invalid-url'), 'invalid-url');
    expect(screen.textContent).toContain('The URL you are trying is invalid or expired');
    expect(warning).not.toHaveBeenCalled();

    const second = await render('/recovery/account');
    await second.waitFor(() => second.$('invalid-url'), 'invalid-url');
    expect(second.$('confirm-form')).toBeNull();
  });
});
