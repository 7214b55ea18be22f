import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectSignedOut } from '../test/signedOut';

type Call = { apiName: string; path: string; options?: { headers?: Record<string, string>; body?: unknown; queryParams?: Record<string, string> } };
type Reply = { status: number; body?: unknown };

const calls: Array<{ method: string } & Call> = [];
let replies: Array<(c: Call) => Reply> = [];

function fakeMethod(method: string) {
  return (input: Call) => {
    calls.push({ method, ...input });
    const next = replies.shift();
    if (!next) throw new Error(`unexpected ${method} ${input.path}`);
    const { status, body } = next(input);
    const text = body === undefined ? '' : JSON.stringify(body);
    const response =
      status < 300
        ? Promise.resolve({ statusCode: status, headers: {}, body: { text: async () => text, json: async () => body, blob: async () => new Blob() } })
        : Promise.reject(Object.assign(new Error('UnknownError'), { name: 'UnknownError', response: { statusCode: status, headers: {}, body: text } }));
    return { response, cancel: () => {} };
  };
}

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', () => ({
  get: fakeMethod('GET'),
  post: fakeMethod('POST'),
  put: fakeMethod('PUT'),
  patch: fakeMethod('PATCH'),
  del: fakeMethod('DELETE'),
}));
const navigateTo = vi.fn();
vi.mock('../navigation', () => ({ navigateTo: (...args: unknown[]) => navigateTo(...args), setNavigate: vi.fn() }));

const { api, configureApi, loadApi, loadApiOnFirstUse, onApiError } = await import('./client');
const { Amplify } = await import('@aws-amplify/core');
const session = await import('../store/session');

const auth = { access_token: 'old', refresh_token: 'r1', expires_in: 900, token_type: 'Bearer' };
const user = { email: 'a@example.com', id: 1, is_staff: true, is_superuser: true, username: 'a@example.com', full_name: 'A', image: 'not set', uid: 'adm-1' };
/** The error hook the UI registers (spec §8 warning). */
const failed = vi.fn();

describe('API client', () => {
  beforeEach(() => {
    calls.length = 0;
    replies = [];
    failed.mockReset();
    navigateTo.mockReset();
    onApiError(failed);
    localStorage.clear();
    session.reloadState();
    session.setState({ auth, user, utilities: { initialRoute: '/admin/x/', language: 'en' } });
  });

  it('configures Amplify REST with <origin>/api, no retries, no AWS signing', async () => {
    configureApi('http://127.0.0.1:3000');
    await loadApi();
    expect(Amplify.configure).toHaveBeenCalledWith(
      { API: { REST: { api: { endpoint: 'http://127.0.0.1:3000/api' } } } },
      { API: { REST: { retryStrategy: { strategy: 'no-retry' }, defaultAuthMode: 'none' } } },
    );
  });

  // Not when the page is idle: on a slow phone that was a download and a long task right after the first page showed.
  it('loads Amplify at the first key, press or focus, once, and then listens no more', async () => {
    const listeners = new Map<string, EventListener>();
    const target = {
      addEventListener: vi.fn((type: string, fn: EventListener, capture?: boolean) => {
        expect(capture).toBe(true);
        listeners.set(type, fn);
      }),
      removeEventListener: vi.fn((type: string, fn: EventListener) => {
        if (listeners.get(type) === fn) listeners.delete(type);
      }),
    };
    configureApi('http://127.0.0.1:3000');
    vi.mocked(Amplify.configure).mockClear();
    loadApiOnFirstUse(target as unknown as Window);
    expect([...listeners.keys()].sort()).toEqual(['focusin', 'keydown', 'pointerdown']);
    listeners.get('pointerdown')!(new Event('pointerdown'));
    expect(listeners.size).toBe(0);
    await loadApi();
  });

  it('sends the Authorization header from the stored auth', async () => {
    replies.push(() => ({ status: 200, body: { ok: true } }));
    await expect(api.get('/profile/')).resolves.toEqual({ ok: true });
    expect(calls[0]).toMatchObject({ method: 'GET', apiName: 'api', path: '/profile/' });
    expect(calls[0].options?.headers?.Authorization).toBe('Bearer old');
  });

  it('refreshes once on 401 and retries with the new token', async () => {
    const fresh = { ...auth, access_token: 'new', refresh_token: 'r2' };
    replies.push(
      () => ({ status: 401, body: { status: 401, message: 'token_expired', errors: {} } }),
      (c) => {
        expect(c.path).toBe('/token/refresh/');
        expect(c.options?.body).toEqual({ refresh_token: 'r1' });
        expect(c.options?.headers?.Authorization).toBeUndefined();
        return { status: 200, body: fresh };
      },
      (c) => {
        expect(c.options?.headers?.Authorization).toBe('Bearer new');
        return { status: 200, body: { id: 1 } };
      },
    );
    await expect(api.get('/profile/')).resolves.toEqual({ id: 1 });
    expect(session.getState().auth).toEqual(fresh);
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('shares one refresh between concurrent 401s', async () => {
    const fresh = { ...auth, access_token: 'new' };
    replies.push(
      () => ({ status: 401, body: { message: 'token_expired' } }),
      () => ({ status: 401, body: { message: 'token_expired' } }),
      () => ({ status: 200, body: fresh }),
      () => ({ status: 200, body: 1 }),
      () => ({ status: 200, body: 2 }),
    );
    const results = await Promise.all([api.get('/a/'), api.get('/b/')]);
    expect(results.sort()).toEqual([1, 2]);
    expect(calls.filter((c) => c.path === '/token/refresh/')).toHaveLength(1);
  });

  it('clears the session and goes to /login when the refresh fails', async () => {
    session.setState({ services: { token: 's' }, verified: { token: 'v' } });
    replies.push(
      () => ({ status: 401, body: { message: 'token_expired' } }),
      () => ({ status: 401, body: { message: 'not_authenticated' } }),
    );
    await expect(api.get('/profile/')).rejects.toMatchObject({ status: 401 });
    const s = session.getState();
    expectSignedOut(s);
    expect(s.utilities.language).toBe('en');
    expect(navigateTo).toHaveBeenCalledWith('/login', expect.objectContaining({ replace: true }));
    expect(failed).not.toHaveBeenCalled();
  });

  it('clears the session on 401 when there is no refresh token', async () => {
    session.setAuth({ ...auth, refresh_token: '' });
    replies.push(() => ({ status: 401, body: { message: 'not_authenticated' } }));
    await expect(api.get('/profile/')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(session.getState().auth).toBeNull();
    expect(navigateTo).toHaveBeenCalledWith('/login', expect.anything());
  });

  it('does not retry a second time when the retried call is 401 again', async () => {
    replies.push(
      () => ({ status: 401 }),
      () => ({ status: 200, body: { ...auth, access_token: 'new' } }),
      () => ({ status: 401 }),
    );
    await expect(api.get('/profile/')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(3);
    expect(session.getState().auth).toBeNull();
  });

  it('anonymous calls (token endpoints) send no token and do not log out on 401', async () => {
    replies.push(() => ({ status: 401, body: { message: 'not_authenticated' } }));
    await expect(api.post('/token/', { email: 'a', password: 'b' }, { anonymous: true, suppressError: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(calls[0].options?.headers?.Authorization).toBeUndefined();
    expect(session.getState().auth).toEqual(auth);
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('hands a failed call to the error hook (the §8 warning) and returns the error to the caller', async () => {
    replies.push(() => ({ status: 400, body: { status: 400, message: 'validation_failed', errors: { email: ['required'] } } }));
    const err = (await api.post('/customer/create/', {}).catch((e: unknown) => e)) as import('./errors').ApiError;
    expect(err).toMatchObject({ status: 400, body: { message: 'validation_failed' } });
    expect(err.fieldErrors).toEqual({ email: ['required'] });
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed).toHaveBeenCalledWith(400, { status: 400, message: 'validation_failed', errors: { email: ['required'] } });
  });

  it('the suppress flag hides the warning (all statuses or listed ones)', async () => {
    replies.push(
      () => ({ status: 500, body: { message: 'internal' } }),
      () => ({ status: 400, body: { message: 'invalid_credentials' } }),
      () => ({ status: 500, body: { message: 'internal' } }),
    );
    await api.get('/x/', { suppressError: true }).catch(() => {});
    await api.post('/y/', {}, { suppressError: [400] }).catch(() => {});
    expect(failed).not.toHaveBeenCalled();
    await api.post('/z/', {}, { suppressError: [400] }).catch(() => {});
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed).toHaveBeenCalledWith(500, { message: 'internal' });
  });

  it('passes query parameters, dropping empty ones', async () => {
    replies.push(() => ({ status: 200, body: [] }));
    await api.get('/notification/', { query: { offset: 0, limit: 10, ordering: '-timestamp', description: undefined } });
    expect(calls[0].options?.queryParams).toEqual({ offset: '0', limit: '10', ordering: '-timestamp' });
  });
  describe('Idempotency-Key', () => {
    const keyOf = (c: Call) => c.options?.headers?.['Idempotency-Key'];
    const quotedUuid = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;

    it('a POST carries a fresh key per action, as a quoted UUID; other methods and token calls carry none', async () => {
      replies.push(
        () => ({ status: 201, body: { id: 1 } }),
        () => ({ status: 201, body: { id: 2 } }),
        () => ({ status: 200, body: [] }),
        () => ({ status: 200, body: auth }),
      );
      await api.post('/message/', { text: 'a' });
      await api.post('/message/', { text: 'a' });
      await api.get('/message/');
      await api.post('/token/', {}, { anonymous: true });
      expect(keyOf(calls[0])).toMatch(quotedUuid);
      expect(keyOf(calls[1])).toMatch(quotedUuid);
      expect(keyOf(calls[0])).not.toBe(keyOf(calls[1]));
      expect(keyOf(calls[2])).toBeUndefined();
      expect(keyOf(calls[3])).toBeUndefined();
    });

    it.each([503, 504])('after %i the POST is sent once more with the same key, and the user sees one result', async (status) => {
      replies.push(
        () => ({ status, body: { status, message: 'service_unavailable', errors: {} } }),
        () => ({ status: 201, body: { id: 7 } }),
      );
      await expect(api.post('/case/hour/create/', { hour: '1' })).resolves.toEqual({ id: 7 });
      expect(calls).toHaveLength(2);
      expect(keyOf(calls[1])).toBe(keyOf(calls[0]));
      expect(calls[1].options?.body).toEqual({ hour: '1' });
      expect(failed).not.toHaveBeenCalled();
    });

    it('after a network failure the POST is sent once more with the same key', async () => {
      replies.push(
        () => {
          throw new TypeError('Failed to fetch');
        },
        () => ({ status: 201, body: { id: 8 } }),
      );
      await expect(api.post('/support/', { subject: 's' })).resolves.toEqual({ id: 8 });
      expect(calls).toHaveLength(2);
      expect(keyOf(calls[1])).toBe(keyOf(calls[0]));
    });

    it('retries once only, and never after an answer that is not a lost one', async () => {
      replies.push(
        () => ({ status: 504, body: { message: 'request_timed_out' } }),
        () => ({ status: 504, body: { message: 'request_timed_out' } }),
      );
      await expect(api.post('/message/', {})).rejects.toMatchObject({ status: 504 });
      expect(calls).toHaveLength(2);
      expect(failed).toHaveBeenCalledTimes(1);
      calls.length = 0;
      replies.push(() => ({ status: 422, body: { status: 422, message: 'idempotency_key_reused', errors: {} } }));
      await expect(api.post('/message/', {})).rejects.toMatchObject({ status: 422 });
      expect(calls).toHaveLength(1);
      calls.length = 0;
      replies.push(() => ({ status: 503 }));
      await expect(api.get('/message/')).rejects.toMatchObject({ status: 503 });
      expect(calls).toHaveLength(1);
    });

    it("a form's own key is sent as given and kept for the retry; the add-on calls send no request_id", async () => {
      const { registerClaim } = await import('./inkasso');
      const { creditLookup } = await import('./addons');
      const { bookMeeting } = await import('./meetings');
      replies.push(
        () => ({ status: 504, body: { message: 'request_timed_out' } }),
        () => ({ status: 201, body: { uid: 'c1' } }),
        () => ({ status: 201, body: { uid: 'r1' } }),
        () => ({ status: 201, body: { uid: 'm1' } }),
      );
      const claim = { debtor_name: 'A' } as never;
      await expect(registerClaim(claim, 'form-key-1')).resolves.toEqual({ uid: 'c1' });
      expect(calls.map(keyOf)).toEqual(['"form-key-1"', '"form-key-1"']);
      expect(calls[0].options?.body).toEqual({ debtor_name: 'A' });
      await creditLookup({ kind: 'company', number: '556000-0001' });
      await bookMeeting({ case_uid: 'c', slot_uid: 's' });
      for (const c of calls.slice(2)) {
        expect(keyOf(c)).toMatch(quotedUuid);
        expect(c.options?.body).not.toHaveProperty('request_id');
      }
    });

    it('a retry after a refreshed token keeps the key', async () => {
      replies.push(
        () => ({ status: 401, body: { message: 'token_expired' } }),
        () => ({ status: 200, body: { ...auth, access_token: 'new' } }),
        () => ({ status: 201, body: { id: 9 } }),
      );
      await expect(api.post('/message/', {})).resolves.toEqual({ id: 9 });
      expect(keyOf(calls[2])).toBe(keyOf(calls[0]));
    });
  });
});
