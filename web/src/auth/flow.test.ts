import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectSignedOut } from '../test/signedOut';
import { fake } from '../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);
const navigateTo = vi.fn();
vi.mock('../navigation', () => ({ navigateTo: (...args: unknown[]) => navigateTo(...args), setNavigate: vi.fn() }));

const flow = await import('./flow');
const session = await import('../store/session');
const twoFactor = await import('../store/twoFactor');
const { ApiError } = await import('../api/errors');
const { onApiError } = await import('../api/client');
const { default: i18n } = await import('../i18n');

const auth = { access_token: 'a1', refresh_token: 'r1', expires_in: 900, token_type: 'Bearer' };
const customer = { email: 'c@example.com', id: 7, is_staff: false, is_superuser: false, username: 'c@example.com', full_name: 'C', image: 'not set', uid: 'cust-1', user_type: 3 };
const challenge = { two_factor_required: true, two_factor_token: 'tf-1', method: 'email' };
const warning = vi.fn();

/** No calls, navigation, warnings or stored session left from the test before. */
function freshStart() {
  fake.reset();
  navigateTo.mockReset();
  warning.mockReset();
  onApiError(warning);
  localStorage.clear();
  sessionStorage.clear();
  session.reloadState();
}

describe('login flow', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  beforeEach(() => {
    freshStart();
  });

  it('without two-factor: stores auth and user and returns the dashboard', async () => {
    fake.replies.push(
      () => ({ status: 200, body: auth }),
      () => ({ status: 200, body: customer }),
    );
    const outcome = await flow.login('c@example.com', 'pw', null);
    expect(outcome).toEqual({ kind: 'signedIn', target: '/user/' });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /token/', 'GET /profile/']);
    expect(fake.calls[0].options?.body).toEqual({ email: 'c@example.com', password: 'pw' });
    expect(fake.calls[0].options?.headers?.Authorization).toBeUndefined();
    expect(fake.calls[1].options?.headers?.Authorization).toBe('Bearer a1');
    expect(session.getState().auth).toEqual(auth);
    expect(session.getState().user).toEqual(customer);
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it('keeps the device token of a completed sign-in apart from the session and sends it back next time', async () => {
    fake.replies.push(
      () => ({ status: 200, body: { ...auth, device_token: 'dev-1' } }),
      () => ({ status: 200, body: customer }),
    );
    await flow.login('c@example.com', 'pw', null);
    expect(session.getState().auth).toEqual(auth);
    expect(localStorage.getItem('root') ?? '').not.toContain('dev-1');
    flow.signOutLocally();
    fake.replies.push(() => ({ status: 400, body: { message: 'invalid_credentials' } }));
    await expect(flow.login(' C@Example.com', 'wrong', null)).rejects.toBeInstanceOf(ApiError);
    expect(fake.calls[2].options?.body).toEqual({ email: ' C@Example.com', password: 'wrong', device_token: 'dev-1' });
    fake.replies.push(() => ({ status: 400, body: { message: 'invalid_credentials' } }));
    await expect(flow.login('other@example.com', 'pw', null)).rejects.toBeInstanceOf(ApiError);
    expect(fake.calls[3].options?.body).toEqual({ email: 'other@example.com', password: 'pw' });
  });

  it('goes back to the remembered origin under the own prefix', async () => {
    session.setInitialRoute('/user/cases/');
    fake.replies.push(
      () => ({ status: 200, body: auth }),
      () => ({ status: 200, body: customer }),
    );
    expect(await flow.login('c@example.com', 'pw', '/user/cases/')).toEqual({ kind: 'signedIn', target: '/user/cases/' });
    expect(session.getState().utilities.initialRoute).toBeNull();
  });

  it('two_factor_required: stores the pending token (sessionStorage only), no session, no profile call', async () => {
    fake.replies.push(() => ({ status: 200, body: challenge }));
    const outcome = await flow.login('c@example.com', 'pw', null);
    expect(outcome).toEqual({ kind: 'twoFactor' });
    expect(fake.calls).toHaveLength(1);
    expect(twoFactor.getPendingTwoFactor()).toEqual({ token: 'tf-1', method: 'email' });
    expect(session.getState().auth).toBeNull();
    expect(localStorage.getItem('root') ?? '').not.toContain('tf-1');
  });

  it('a reply without a real token is not taken for a challenge', async () => {
    fake.replies.push(() => ({ status: 200, body: { two_factor_required: true, two_factor_token: '' } }));
    // Not a challenge → treated as a token pair → the profile call follows.
    fake.replies.push(() => ({ status: 401, body: { message: 'not_authenticated' } }));
    await expect(flow.login('c@example.com', 'pw', null)).rejects.toBeInstanceOf(ApiError);
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it('the code step posts token and code, then completes the login the same way', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    fake.replies.push(
      () => ({ status: 200, body: auth }),
      () => ({ status: 200, body: customer }),
    );
    const outcome = await flow.submitTwoFactorCode('123456', null);
    expect(outcome).toEqual({ kind: 'signedIn', target: '/user/' });
    expect(fake.calls[0]).toMatchObject({ method: 'POST', path: '/token/2fa/', options: { body: { two_factor_token: 'tf-1', code: '123456' } } });
    expect(fake.calls[0].options?.headers?.Authorization).toBeUndefined();
    expect(fake.calls[1].path).toBe('/profile/');
    expect(session.getState().auth).toEqual(auth);
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });

  it('a wrong code rejects with the 400 for the page and shows no notification', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    fake.replies.push(() => ({ status: 400, body: { status: 400, message: 'code_not_correct', errors: {} } }));
    const err = await flow.submitTwoFactorCode('000000', null).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, body: { message: 'code_not_correct' } });
    expect(warning).not.toHaveBeenCalled();
    expect(twoFactor.getPendingTwoFactor()).toEqual({ token: 'tf-1', method: 'email' });
    expect(session.getState().auth).toBeNull();
  });

  it('resending stores the new token', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    fake.replies.push(() => ({ status: 200, body: { message: 'code_sent', two_factor_token: 'tf-2', two_factor_required: true, method: 'email' } }));
    await expect(flow.resendCode()).resolves.toBe('code_sent');
    expect(fake.calls[0]).toMatchObject({ method: 'POST', path: '/resend/2fa/', options: { body: { two_factor_token: 'tf-1' } } });
    expect(twoFactor.getPendingTwoFactor()?.token).toBe('tf-2');
  });

  it('resending when rate limited keeps the old token and shows no notification', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    fake.replies.push(() => ({ status: 429, body: { status: 429, message: 'too_many_requests', errors: {} } }));
    await expect(flow.resendCode()).rejects.toMatchObject({ status: 429 });
    expect(twoFactor.getPendingTwoFactor()?.token).toBe('tf-1');
    expect(warning).not.toHaveBeenCalled();
  });

  it('an account without a role stores nothing', async () => {
    fake.replies.push(
      () => ({ status: 200, body: auth }),
      () => ({ status: 200, body: { ...customer, user_type: 9 } }),
    );
    expect(await flow.login('c@example.com', 'pw', null)).toEqual({ kind: 'noRole' });
    expect(session.getState().auth).toBeNull();
  });
});

describe('logout', () => {
  beforeEach(() => {
    freshStart();
    session.setState({ auth, user: customer, services: { token: 's' }, verified: { token: 'v' } });
    session.setInitialRoute('/user/cases/');
  });

  afterEach(() => {
    vi.useRealTimers();
    session.acknowledgeSessionEnd();
  });

  it('posts the refresh token to /api/logout/ (anonymous), then clears the session and goes to /login', async () => {
    fake.replies.push((c) => {
      // The session is still there while the call is made.
      expect(session.getState().auth).toEqual(auth);
      expect(c.options?.headers?.Authorization).toBeUndefined();
      return { status: 200, body: { message: 'logged_out' } };
    });
    await flow.logout();
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method: 'POST', apiName: 'api', path: '/logout/', options: { body: { refresh_token: 'r1' } } });
    expectSignedOut(session.getState());
    expect(session.sessionEndedOnPurpose()).toBe(true);
    expect(navigateTo).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('clears the session even when the call fails, without a notification', async () => {
    fake.replies.push(() => ({ status: 500, body: { message: 'internal' } }));
    await flow.logout();
    expect(fake.calls[0].path).toBe('/logout/');
    expect(session.getState().auth).toBeNull();
    expect(warning).not.toHaveBeenCalled();
    expect(navigateTo).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('clears the session on a network failure', async () => {
    fake.replies.push(() => 'network-error');
    await flow.logout();
    expect(session.getState().auth).toBeNull();
    expect(warning).not.toHaveBeenCalled();
  });

  it('does not wait forever for the server', async () => {
    vi.useFakeTimers();
    fake.replies.push(() => new Promise(() => {}));
    const done = flow.logout();
    await vi.advanceTimersByTimeAsync(flow.LOGOUT_TIMEOUT_MS);
    await done;
    expect(session.getState().auth).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('with no stored token, makes no call', async () => {
    session.setAuth(null);
    await flow.logout();
    expect(fake.calls).toHaveLength(0);
    expect(navigateTo).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('drops a pending two-factor sign-in', async () => {
    twoFactor.setPendingTwoFactor({ token: 'tf-1', method: 'email' });
    fake.replies.push(() => ({ status: 200, body: {} }));
    await flow.logout();
    expect(twoFactor.getPendingTwoFactor()).toBeNull();
  });
});
