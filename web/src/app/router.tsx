import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ROLE_PREFIX, ROLES } from '../auth/roles';
import { setNavigate } from '../navigation';
import NotFound from '../pages/NotFound';
import Landing from '../pages/public/Landing';
import ConfirmPassword from '../pages/public/ConfirmPassword';
import Login from '../pages/public/Login';
import RecoverPassword from '../pages/public/RecoverPassword';
import Registration from '../pages/public/Registration';
import TwoFactorLogin from '../pages/public/TwoFactorLogin';
import PublicPlaceholder from '../pages/public/PublicPlaceholder';
import Root from './Root';
import { PublicOnly, RoleGate } from './guards';

// The role areas (layout, route catalogue) load lazily; each page is its own chunk (app/pages.tsx).
const RoleArea = lazy(() => import('./RoleArea'));

const publicPlaceholders: Array<[string, string]> = [];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/', element: <PublicOnly><Landing /></PublicOnly> },
      { path: '/login', element: <PublicOnly><Login /></PublicOnly> },
      { path: '/authentication', element: <PublicOnly><TwoFactorLogin /></PublicOnly> },
      { path: '/recover-password', element: <PublicOnly><RecoverPassword /></PublicOnly> },
      { path: '/recovery/account', element: <PublicOnly><ConfirmPassword variant="recovery" /></PublicOnly> },
      { path: '/confirm/account', element: <PublicOnly><ConfirmPassword variant="confirm" /></PublicOnly> },
      { path: '/approve/customer', element: <PublicOnly><ConfirmPassword variant="approve" /></PublicOnly> },
      { path: '/registration', element: <PublicOnly><Registration /></PublicOnly> },
      ...publicPlaceholders.map(([path, titleKey]) => ({
        path,
        element: (
          <PublicOnly>
            <PublicPlaceholder titleKey={titleKey} />
          </PublicOnly>
        ),
      })),
      // Each role's area under its prefix (spec §2): /admin/, /lawyer/, /sales/, /user/, /customer_contact/.
      ...ROLES.map((role) => ({
        path: `${ROLE_PREFIX[role]}*`,
        element: (
          <RoleGate role={role}>
            <RoleArea role={role} />
          </RoleGate>
        ),
      })),
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigate((to, opts) => void router.navigate(to, opts));
  return router;
}
