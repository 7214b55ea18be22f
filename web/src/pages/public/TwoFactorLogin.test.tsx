import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { auth, customer, session, twoFactor, signedOutPages, submitCodeSignsIn } = await import('./signInTestSetup');

describe('code screen: authenticator app', { timeout: 180_000 }, () => {
  const { warning, page, render } = signedOutPages();

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
    await submitCodeSignsIn({ click, waitFor, path });
  });

  it('a used app code is shown inline', async () => {
    const { $, waitFor } = await page.submitRefusedCode({ token: 'tf-1', method: 'totp' }, 'totp_code_used', '287082');
    const error = await waitFor(() => $('twofa-error'), 'twofa-error');
    expect(error.textContent).toContain('already been used');
    expect($('twofa-form')).not.toBeNull();
    expect(warning).not.toHaveBeenCalled();
  });

  it('too many wrong app codes end the sign-in: back to /login saying so', async () => {
    const { $, waitFor, path } = await page.submitRefusedCode({ token: 'tf-1', method: 'totp' }, 'totp_attempts_exceeded', '111111');
    await waitFor(() => path() === '/login', '/login');
    const notice = await waitFor(() => $('login-notice'), 'login-notice');
    expect(notice.textContent).toContain('Too many wrong codes. Please log in again.');
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it("'Use a recovery code' takes a recovery code (its own rule), sent normalised", async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'totp' });
    const { $, type, click, waitFor, path, container } = await render('/authentication');
    await waitFor(() => $('twofa-form'), 'form');
    // A switch (a checkbox drawn as antd's Switch), named by its text.
    const toggle = $('twofa-use-recovery') as HTMLInputElement;
    expect(toggle.getAttribute('role')).toBe('switch');
    expect(toggle.closest('label')?.textContent).toBe('Use a recovery code');
    expect(document.activeElement).toBe($('twofa-code'));
    await type('twofa-code', '12');
    await click('twofa-use-recovery');
    expect(toggle.checked).toBe(true);
    // A fresh, empty and focused field for the other kind of code, labelled for it.
    expect(($('twofa-code') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe($('twofa-code'));
    expect(document.querySelector('label[for="twofa_code"]')?.textContent).toBe('Recovery code');
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

  it('the e-mailed code: spaces dropped as typed, the rule announced and linked; a resend empties the field', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    const { $, type, click, waitFor, container } = await render('/authentication');
    const code = (await waitFor(() => $('twofa-code'), 'code')) as HTMLInputElement;
    expect(document.activeElement).toBe(code);
    expect(document.querySelector('label[for="twofa_code"]')?.textContent).toBe('Code');
    await click('twofa-submit');
    await waitFor(() => container.textContent?.includes('Please enter the 6-digit code'), 'required');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    const help = document.getElementById(code.getAttribute('aria-describedby')!);
    expect(help?.getAttribute('role')).toBe('alert');
    expect(help?.textContent).toBe('Please enter the 6-digit code');
    await type('twofa-code', '12 34 5');
    expect(code.value).toBe('12345');
    await waitFor(() => container.textContent?.includes('The code must be exactly 6 digits'), 'format');
    await type('twofa-code', '123 456');
    await waitFor(() => code.getAttribute('aria-invalid') === null, 'valid');
    expect(fake.calls).toHaveLength(0);

    fake.replies.push(() => ({ status: 200, body: { message: 'code_sent', two_factor_token: 'tf-2', two_factor_required: true, method: 'email' } }));
    await click('twofa-resend');
    await waitFor(() => $('twofa-info'), 'code_sent');
    expect(($('twofa-code') as HTMLInputElement).value).toBe('');
    // Emptied as new: no rule speaks until the field is used again.
    expect(container.textContent).not.toContain('Please enter the 6-digit code');
  });

  it('the fifth wrong mailed code: the field is emptied and the page says a new code was mailed', async () => {
    const { $, type, click, waitFor, container, path } = await page.submitRefusedCode({ token: 'tf-1', method: 'email' }, 'code_replaced', '111111');
    const info = await waitFor(() => $('twofa-info'), 'twofa-info');
    expect(info.textContent).toBe('Too many wrong codes: that code no longer works. We have e-mailed you a new one.');
    expect(info.className).toContain('ant-alert-warning');
    expect(($('twofa-code') as HTMLInputElement).value).toBe('');
    expect($('twofa-error')).toBeNull();
    expect(container.textContent).not.toContain('Please enter the 6-digit code');
    // Said on the page, not as a warning.
    expect(warning).not.toHaveBeenCalled();
    // The same sign-in goes on: the new code is sent with the same token.
    expect(twoFactor.getPendingTwoFactor()).toEqual({ token: 'tf-1', method: 'email' });
    fake.replies.push((c) => {
      expect(c).toMatchObject({ path: '/token/2fa/', options: { body: { two_factor_token: 'tf-1', code: '222222' } } });
      return { status: 200, body: auth };
    });
    fake.replies.push(() => ({ status: 200, body: customer }));
    await type('twofa-code', '222222');
    await click('twofa-submit');
    await waitFor(() => path() === '/user/', '/user/');
    // Not a warning again here: the customer's home then loads its own data, which this test does not
    // answer, and whether it has asked by now depends on the machine's load (it failed so, under load).
    expect(fake.calls.filter((c) => c.path === '/token/2fa/')).toHaveLength(2);
  });
});
