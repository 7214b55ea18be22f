import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { fetchProfile } from '../api/auth';
import { resolveRole } from '../auth/roles';
import { registerErrorNotification } from '../layout/errorNotification';
import { clearSession, getState, setUser } from '../store/session';

let bootstrapped = false;

/**
 * On start with a stored token: load the session user when missing, or
 * refresh it quietly (a 401 there logs out through the API client).
 */
export async function bootstrapSession(): Promise<void> {
  if (bootstrapped) return;
  bootstrapped = true;
  const { auth, user } = getState();
  if (!auth) return;
  try {
    const fresh = await fetchProfile({ suppressError: !!user });
    if (resolveRole(fresh) === 'none') clearSession();
    else setUser(fresh);
  } catch {
    // 401 already cleared the session; other failures keep the stored user (or sign out if there is none).
    if (!getState().user) clearSession();
  }
}

/** Router root: registers the §8 error notification (antd's context-aware API) on the API client and bootstraps the session. */
export default function Root() {
  const { notification } = AntApp.useApp();
  useEffect(() => registerErrorNotification(notification), [notification]);
  useEffect(() => {
    void bootstrapSession();
  }, []);
  return <Outlet />;
}
