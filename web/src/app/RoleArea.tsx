import { lazy, Suspense, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoutes, Navigate, Route, Routes, useLocation } from 'react-router';
import { refreshPermissions } from '../auth/flow';
import { hasPermission } from '../auth/permissions';
import type { Role } from '../auth/roles';
import { PageSkeleton } from '../components/Skeletons';
import AppLayout from '../layout/AppLayout';
import { preloadFeedback } from '../layout/feedback';
import { useLoadCustomerServices } from '../pages/subscriptions/customerServices';
import { pathFor, routeOf, type RoleRoute } from '../routes/pathFor';
import { menuFor, routePattern, routesFor, type MenuDef } from '../routes/roleTables';
import { useSession } from '../store/session';
import { PAGES, prefetchPage } from './pages';
import { preloadAntdTheme, themedModule } from '../components/themed';

// Shown only for an unknown path or a route without its page: loaded then (antd's Result with its
// illustrations is ~10 KiB gzip the dashboards need not load).
const NotFound = lazy(() => themedModule(() => import('../pages/NotFound')));
/** When the area fetches the confirmations' chunk if nobody clicked or typed before. */
const FEEDBACK_PRELOAD_MS = 4000;
const Placeholder = lazy(() => themedModule(() => import('../pages/Placeholder')));

function RoutePage({ role, route }: { role: Role; route: RoleRoute }) {
  const { t } = useTranslation();
  const userType = useSession((s) => s.user?.user_type);
  const permissions = useSession((s) => s.permission);
  const title = t(route.title, { ns: 'routes' });

  useEffect(() => {
    document.title = `${title} | ${t('app.name')}`;
  }, [title, t]);

  // Spec §5: a customer contact without the route's permission goes to the area's root.
  if (route.contactNeeds && !hasPermission(userType, permissions, route.contactNeeds)) {
    return <Navigate to={pathFor(role, 'dashboard')} replace />;
  }
  const Page = route.page ? PAGES[route.page] : Placeholder;
  return <Page titleKey={route.title} />;
}

/**
 * What entering an area loads (spec §7): the customer's `customer/{uid}/` in
 * the customer and contact areas; contacts also reload their permission
 * codes (the customer may have changed them since sign-in).
 */
function useAreaStart(role: Role) {
  useEffect(() => {
    if (role === 'customerContact') void refreshPermissions();
  }, [role]);
  useLoadCustomerServices(role === 'customer' || role === 'customerContact');
  // The pages' confirmations (layout/feedback.ts) and antd's theme (which every page but the dashboards draws with)
  // before anyone needs them, but not in the way of the first page's own chunks and data on a slow connection: at the
  // user's first click or key (a confirmation follows an action and its call, a page a click, which the chunks
  // overlap), or once the page has had a few seconds.
  useEffect(() => {
    const events = ['pointerdown', 'keydown'] as const;
    const preload = () => {
      window.clearTimeout(timer);
      events.forEach((e) => window.removeEventListener(e, preload, true));
      preloadFeedback();
      preloadAntdTheme();
    };
    const timer = window.setTimeout(preload, FEEDBACK_PRELOAD_MS);
    events.forEach((e) => window.addEventListener(e, preload, true));
    return () => {
      window.clearTimeout(timer);
      events.forEach((e) => window.removeEventListener(e, preload, true));
    };
  }, []);
}

/** The shape of a page's skeleton, from its page key. */
function skeletonKind(page: string | undefined): 'list' | 'form' | 'details' {
  if (!page || /Form|Create|Edit|Update|Connect|Password|TwoFactor|Route$|Check$/.test(page)) return 'form';
  if (/Details|Profile|Dashboard|Home|Statistics|Academy|Support$|Results|Ratings|Legal/.test(page)) return 'details';
  return 'list';
}

/** What the area shows while the current route's page chunk loads: a skeleton shaped like that page. */
function RouteSkeleton({ role, routes }: { role: Role; routes: RoleRoute[] }) {
  const { pathname } = useLocation();
  const prefix = pathFor(role, 'dashboard');
  const match = matchRoutes(
    routes.map((r) => ({ path: `${prefix}${routePattern(r)}`, id: r.id })),
    pathname,
  );
  const route = routes.find((r) => r.id === match?.[0]?.route.id);
  return <PageSkeleton kind={skeletonKind(route?.page)} />;
}

/** A role's area: the common layout around the role's routes and menu, from the route catalogue. */
export default function RoleArea({ role }: { role: Role }) {
  useAreaStart(role);
  const routes = useMemo(() => routesFor(role), [role]);
  const menu = useMemo(() => menuFor(role), [role]);
  // A menu entry's page is fetched when the entry is hovered, focused or in view (SideMenu).
  const prefetch = useCallback((entry: MenuDef) => entry.route && prefetchPage(routeOf(role, entry.route)?.page), [role]);
  // The text styles antd's App gave the area (styles.css `.app-area`); its message and modal hooks are
  // layout/feedback.ts, loaded ahead of need (~19 KiB gzip of the first page).
  return (
    <div className="app-area">
      <AppLayout role={role} menu={menu} onPrefetch={prefetch}>
        <Suspense fallback={<RouteSkeleton role={role} routes={routes} />}>
          <Routes>
            {routes.map((route) =>
              route.path === '' ? (
                <Route key={route.id} index element={<RoutePage role={role} route={route} />} />
              ) : (
                <Route key={route.id} path={routePattern(route)} element={<RoutePage role={role} route={route} />} />
              ),
            )}
            <Route path="*" element={<NotFound embedded />} />
          </Routes>
        </Suspense>
      </AppLayout>
    </div>
  );
}
