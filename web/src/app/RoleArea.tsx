import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router';
import { refreshPermissions } from '../auth/flow';
import { hasPermission } from '../auth/permissions';
import type { Role } from '../auth/roles';
import Loading from '../components/Loading';
import AppLayout from '../layout/AppLayout';
import NotFound from '../pages/NotFound';
import Placeholder from '../pages/Placeholder';
import { useLoadCustomerServices } from '../pages/subscriptions/customerServices';
import { pathFor, type RoleRoute } from '../routes/pathFor';
import { menuFor, routePattern, routesFor } from '../routes/roleTables';
import { useSession } from '../store/session';
import { PAGES } from './pages';

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
}

/** A role's area: the common layout around the role's routes and menu, from the route catalogue. */
export default function RoleArea({ role }: { role: Role }) {
  useAreaStart(role);
  const routes = useMemo(() => routesFor(role), [role]);
  const menu = useMemo(() => menuFor(role), [role]);
  return (
    <AppLayout role={role} menu={menu}>
      <Suspense fallback={<Loading />}>
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
  );
}
