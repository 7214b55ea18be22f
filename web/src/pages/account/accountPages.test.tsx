import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests, TEST_AUTH: auth } = await import('../../test/renderApp');
const session = await import('../../store/session');

const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee' };
const admin = { email: 'a@example.com', id: 1, is_staff: true, full_name: 'Ada' };
const warning = vi.fn();

const page = pageTests({ warning });

/** Signed in (the start-up profile refresh, if made, is answered). */
const render = (path: string, user: typeof customer | typeof admin = customer) => page.render(path, user);

describe('account pages', { timeout: 180_000 }, () => {
  it('change password: server field errors go onto the fields; success stores the new tokens', async () => {
    const { $, type, click, waitFor } = await render('/user/change-password/');
    await waitFor(() => $('change-password-form'), 'form');

    await type('change-password-old', 'Old-pass-2026');
    await type('change-password-new', 'short');
    await type('change-password-confirm', 'short');
    await click('change-password-submit');
    await waitFor(() => page.ui!.container.textContent?.includes('at least 8 characters'), 'length rule');
    expect(fake.calls.filter((c) => c.path === '/password/change/')).toHaveLength(0);

    fake.replies.push((c) => {
      expect(c).toMatchObject({
        method: 'POST',
        path: '/password/change/',
        options: { body: { old_password: 'Wrong-pass-2026', new_password: 'password1', confirm_password: 'password1' } },
      });
      expect(c.options?.headers?.Authorization).toBe('Bearer a1');
      return {
        status: 400,
        body: {
          status: 400,
          message: 'validation_failed',
          errors: { old_password: ['current_password_wrong'], new_password: ['password_too_common'] },
        },
      };
    });
    await type('change-password-old', 'Wrong-pass-2026');
    await type('change-password-new', 'password1');
    await type('change-password-confirm', 'password1');
    await click('change-password-submit');
    await waitFor(() => page.ui!.container.textContent?.includes('The current password is wrong.'), 'old_password error');
    const text = page.ui!.container.textContent ?? '';
    expect(text).toContain('This password is too common');
    expect($('change-password-error')).toBeNull();
    expect(warning).not.toHaveBeenCalled();

    const fresh = { ...auth, access_token: 'a2', refresh_token: 'r2' };
    fake.replies.push(() => ({ status: 200, body: fresh }));
    await type('change-password-old', 'Old-pass-2026');
    await type('change-password-new', 'New-pass-2026-xyz');
    await type('change-password-confirm', 'New-pass-2026-xyz');
    await click('change-password-submit');
    const done = await waitFor(() => $('change-password-success'), 'success');
    expect(done.textContent).toContain('Your password has been changed.');
    expect(session.getState().auth).toEqual(fresh);
    expect(($('change-password-old') as HTMLInputElement).value).toBe('');
  });

  it('two-factor: turning it off stays; turning it on logs out to /login without remembering the page', async () => {
    fake.routes.set('GET /2fa/status/', () => ({ status: 200, body: { enabled: true, method: 'email', recovery_codes_left: 0 } }));
    const { $, click, type, waitFor, path, location } = await render('/admin/update-2fa/', admin);
    const status = await waitFor(() => $('twofa-status'), 'status');
    expect(status.dataset.enabled).toBe('true');
    expect(status.dataset.method).toBe('email');
    expect(status.textContent).toBe('On (e-mail code)');

    // Turning it off asks for the password first; the explicit state is sent, not a flip.
    await click('twofa-method-off');
    await waitFor(() => $('twofa-off-confirm'), 'password form');
    expect(fake.calls.filter((c) => c.path === '/2fa/toggle-activation/')).toHaveLength(0);
    await click('twofa-off-submit');
    await waitFor(() => page.ui!.container.textContent?.includes('Enter your current password.'), 'password required');
    expect(fake.calls.filter((c) => c.path === '/2fa/toggle-activation/')).toHaveLength(0);
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/2fa/toggle-activation/', options: { body: { enabled: false, password: 'nope' } } });
      return { status: 400, body: { status: 400, message: 'validation_failed', errors: { password: ['current_password_wrong'] } } };
    });
    await type('twofa-off-password', 'nope');
    await click('twofa-off-submit');
    await waitFor(() => page.ui!.container.textContent?.includes('The current password is wrong.'), 'wrong password');
    expect($('twofa-status')!.dataset.enabled).toBe('true');
    expect(warning).not.toHaveBeenCalled();
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/2fa/toggle-activation/', options: { body: { enabled: false, password: 'Right-pass-2026' } } });
      return { status: 200, body: { enabled: false, method: 'email', recovery_codes_left: 0 } };
    });
    await type('twofa-off-password', 'Right-pass-2026');
    await click('twofa-off-submit');
    await waitFor(() => $('twofa-status')?.dataset.enabled === 'false', 'off');
    expect($('twofa-off-confirm')).toBeNull();
    expect($('twofa-status')!.textContent).toBe('Off');
    expect(path()).toBe('/admin/update-2fa/');
    expect(session.getState().auth).toEqual(auth);

    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/2fa/toggle-activation/', options: { body: { enabled: true } } });
      return { status: 200, body: { enabled: true, method: 'email', recovery_codes_left: 0 } };
    });
    await click('twofa-method-email');
    await waitFor(() => path() === '/login', '/login');
    await waitFor(() => $('login-form'), 'login form');
    expect(session.getState().auth).toBeNull();
    expect(session.getState().utilities.initialRoute).toBeNull();
    expect(location().state).toBeFalsy();
    expect(document.body.textContent).toContain('Two-factor authentication is on.');
    // No call was made with the ended session.
    expect(fake.calls.at(-1)?.path).toBe('/2fa/toggle-activation/');
  });

  it('log out from the user menu calls /api/logout/ and lands on /login without remembering the page', async () => {
    const { click, waitFor, path, $ } = await render('/user/cases/');
    await waitFor(() => $('user-menu'), 'user menu');
    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/logout/', options: { body: { refresh_token: 'r1' } } });
      return { status: 200, body: { message: 'logged_out' } };
    });
    await click('user-menu');
    await waitFor(() => document.querySelector('[data-testid="user-menu-logout"]'), 'logout item');
    await act(async () => {
      (document.querySelector('[data-testid="user-menu-logout"]') as HTMLElement).click();
    });
    await waitFor(() => path() === '/login', '/login');
    expect(session.getState().auth).toBeNull();
    expect(session.getState().utilities.initialRoute).toBeNull();
    expect(fake.calls.some((c) => c.path === '/logout/')).toBe(true);
  });

  it('the user menu leads to both pages under the role prefix', async () => {
    const { click, waitFor, path, $ } = await render('/user/');
    await waitFor(() => $('user-menu'), 'user menu');
    fake.routes.set('GET /2fa/status/', () => ({ status: 200, body: { enabled: false } }));
    await click('user-menu');
    await waitFor(() => document.querySelector('[data-testid="user-menu-2fa"]'), '2fa item');
    await act(async () => {
      (document.querySelector('[data-testid="user-menu-2fa"]') as HTMLElement).click();
    });
    await waitFor(() => path() === '/user/update-2fa/', '/user/update-2fa/');
    await waitFor(() => $('twofa-status'), 'status');

    await click('user-menu');
    await waitFor(() => document.querySelector('[data-testid="user-menu-change-password"]'), 'change password item');
    await act(async () => {
      (document.querySelector('[data-testid="user-menu-change-password"]') as HTMLElement).click();
    });
    await waitFor(() => path() === '/user/change-password/', '/user/change-password/');
    await waitFor(() => $('change-password-form'), 'form');
  });
});
