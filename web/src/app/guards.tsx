import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { decideAccess, LOGIN_PATH, postLoginTarget } from '../auth/guards';
import { resolveRole, type Role } from '../auth/roles';
import Loading from '../components/Loading';
import { AreaSkeleton } from '../components/Skeletons';
import { rememberedOrigin } from '../pages/public/Login';
import { acknowledgeSessionEnd, sessionEndedOnPurpose, setInitialRoute, useSession } from '../store/session';
import { themedModule } from '../components/themed';

// Loaded when shown (its illustrations are not on the first page's budget), with antd's theme (components/themed.ts).
const NotFound = lazy(() => themedModule(() => import('../pages/NotFound')));

function useGuard() {
  const location = useLocation();
  const hasToken = useSession((s) => !!s.auth?.access_token);
  const user = useSession((s) => s.user);
  const role = resolveRole(user);
  const decision = decideAccess({ pathname: location.pathname, search: location.search, hasToken, role });
  return { location, hasToken, user, role, decision };
}

function RememberAndLogin({ from }: { from: string }) {
  useEffect(() => setInitialRoute(from), [from]);
  return <Navigate to={LOGIN_PATH} replace state={{ from }} />;
}

/** After a log out (or turning two-factor on): to /login, remembering nothing, so the next login lands on the dashboard. */
function LoginAfterSignOut() {
  useEffect(() => acknowledgeSessionEnd(), []);
  return <Navigate to={LOGIN_PATH} replace />;
}

/** The login steps: a signed-in user there goes to the remembered origin rather than the dashboard. */
const LOGIN_STEPS = new Set([LOGIN_PATH, '/authentication']);

/** Wraps a public page: a signed-in user is sent to their dashboard (or, on the login steps, the remembered origin). */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { location, hasToken, user, role, decision } = useGuard();
  if (hasToken && !user) return <Loading fullscreen />;
  if (decision.kind === 'dashboard' && role !== 'none') {
    const onLoginStep = LOGIN_STEPS.has(location.pathname.replace(/(.)\/+$/, '$1'));
    const to = onLoginStep ? postLoginTarget(role, rememberedOrigin(location.state)) : decision.to;
    return <Navigate to={to} replace />;
  }
  return <>{children}</>;
}

/** Wraps a role's area (`/<prefix>/*`): login when signed out, Page Not Found for another role. */
export function RoleGate({ role: _role, children }: { role: Role; children: ReactNode }) {
  const { hasToken, user, decision } = useGuard();
  if (decision.kind === 'login') {
    return sessionEndedOnPurpose() ? <LoginAfterSignOut /> : <RememberAndLogin from={decision.from} />;
  }
  if (hasToken && !user) return <Loading fullscreen />;
  // While the area's chunk loads: its frame (header, menu column) and a page skeleton, where the layout will draw them.
  return <Suspense fallback={decision.kind === 'allow' ? <AreaSkeleton /> : <Loading fullscreen />}>{decision.kind === 'allow' ? children : <NotFound />}</Suspense>;
}
