import { Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { decideAccess, LOGIN_PATH, postLoginTarget } from '../auth/guards';
import { resolveRole, type Role } from '../auth/roles';
import Loading from '../components/Loading';
import NotFound from '../pages/NotFound';
import { rememberedOrigin } from '../pages/public/Login';
import { setInitialRoute, useSession } from '../store/session';

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

/** Wraps a public page: a signed-in user is sent to their dashboard (or, on /login, the remembered origin). */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { location, hasToken, user, role, decision } = useGuard();
  if (hasToken && !user) return <Loading fullscreen />;
  if (decision.kind === 'dashboard' && role !== 'none') {
    const to = location.pathname === LOGIN_PATH ? postLoginTarget(role, rememberedOrigin(location.state)) : decision.to;
    return <Navigate to={to} replace />;
  }
  return <>{children}</>;
}

/** Wraps a role's area (`/<prefix>/*`): login when signed out, Page Not Found for another role. */
export function RoleGate({ role: _role, children }: { role: Role; children: ReactNode }) {
  const { hasToken, user, decision } = useGuard();
  if (decision.kind === 'login') return <RememberAndLogin from={decision.from} />;
  if (hasToken && !user) return <Loading fullscreen />;
  if (decision.kind !== 'allow') return <NotFound />;
  return <Suspense fallback={<Loading fullscreen />}>{children}</Suspense>;
}
