import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { fetchProfile } from '../api/auth';
import { resolveRole } from '../auth/roles';
import { registerErrorNotification, type Notifier } from '../layout/errorNotification';
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

/** antd's notification API, loaded with the first warning to show (layout/notifier.tsx). */
const lazyNotifier: Notifier = {
  warning: (args) => void import('../layout/notifier').then(({ default: notification }) => notification.warning(args)),
};

/** Router root: registers the §8 error notification on the API client and bootstraps the session. */
export default function Root() {
  useEffect(() => registerErrorNotification(lazyNotifier), []);
  useEffect(() => {
    void bootstrapSession();
  }, []);
  return <Outlet />;
}
