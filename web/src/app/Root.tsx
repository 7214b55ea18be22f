import { Suspense, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { onApiError } from '../api/setup';
import { resolveRole } from '../auth/roles';
import { loadAntdLocale } from '../i18n';
import type { Notifier } from '../layout/errorNotification';
import { setNavigate } from '../navigation';
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
    // Loaded here, not with the entry: only a visitor with a stored sign-in asks (the public pages' budget).
    const { fetchProfile } = await import('../api/auth');
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
  warning: (args) =>
    void Promise.all([import('../layout/notifier'), loadAntdLocale()]).then(([{ default: notification }]) => notification.warning(args)),
};

/**
 * Router root: registers the §8 error notification (loaded with the first failed call) and the router's navigate (navigation.ts) for the API client,
 * bootstraps the session, and holds the pages' Suspense: it already shows content when a navigation (a transition)
 * loads a page's chunk, so the current page stays until the next can draw; on the first load it shows nothing.
 */
export default function Root() {
  const navigate = useNavigate();
  // The §8 warning's texts and layout (layout/errorNotification.ts) load with the first failed call, not with the page.
  useEffect(() => onApiError((status, body) => void import('../layout/errorNotification').then((m) => m.notifyError(lazyNotifier, status, body))), []);
  useEffect(() => {
    setNavigate((to, opts) => void navigate(to, opts));
    return () => setNavigate(null);
  }, [navigate]);
  useEffect(() => {
    void bootstrapSession();
  }, []);
  return (
    <Suspense fallback={null}>
      <Outlet />
    </Suspense>
  );
}
