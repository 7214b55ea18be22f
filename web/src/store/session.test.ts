import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEY } from '../config/constants';
import { clearSession, getState, reloadState, setAuth, setInitialRoute, setLanguage, setState, setUser } from './session';

const auth = { access_token: 'a', refresh_token: 'r', expires_in: 900, token_type: 'Bearer' };
const user = { email: 'x@example.com', id: 1, is_staff: true, is_superuser: true, username: 'x@example.com', full_name: 'X', image: 'not set', uid: 'adm-1' };

describe('session store', () => {
  beforeEach(() => {
    localStorage.clear();
    reloadState();
  });

  it('defaults: no session, language sv', () => {
    expect(getState()).toMatchObject({ auth: null, user: null, utilities: { initialRoute: null, language: 'sv' } });
  });

  it('persists under the key root and reloads it', () => {
    setAuth(auth);
    setUser(user);
    setLanguage('en');
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY)!);
    expect(stored.auth).toEqual(auth);
    expect(stored.user).toEqual(user);
    expect(stored.utilities.language).toBe('en');
    reloadState();
    expect(getState().auth).toEqual(auth);
    expect(getState().utilities.language).toBe('en');
  });

  it('clearSession resets auth, user, initial route, services and verified tokens, keeping the language', () => {
    setAuth(auth);
    setUser(user);
    setInitialRoute('/admin/customers/');
    setLanguage('en');
    setState({ services: { token: 's' }, verified: { token: 'v' }, permission: ['add_case'] });
    clearSession();
    expect(getState()).toEqual({
      user: null,
      auth: null,
      utilities: { initialRoute: null, language: 'en' },
      services: { token: null },
      verified: null,
      permission: [],
    });
  });

  it('ignores a corrupt or foreign stored value', () => {
    localStorage.setItem(STORAGE_KEY, '{not json');
    reloadState();
    expect(getState().auth).toBeNull();
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ auth: { foo: 1 }, utilities: { language: 'de' } }));
    reloadState();
    expect(getState().auth).toBeNull();
    expect(getState().utilities.language).toBe('sv');
  });
});
