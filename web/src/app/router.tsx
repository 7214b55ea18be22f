import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
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

// One lazily loaded bundle per role.
const AdminApp = lazy(() => import('../routes/admin'));
const LawyerApp = lazy(() => import('../routes/lawyer'));
const SalesApp = lazy(() => import('../routes/sales'));
const CustomerApp = lazy(() => import('../routes/customer'));
const CustomerContactApp = lazy(() => import('../routes/customerContact'));

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
      { path: '/admin/*', element: <RoleGate role="admin"><AdminApp /></RoleGate> },
      { path: '/lawyer/*', element: <RoleGate role="lawyer"><LawyerApp /></RoleGate> },
      { path: '/sales/*', element: <RoleGate role="sales"><SalesApp /></RoleGate> },
      { path: '/user/*', element: <RoleGate role="customer"><CustomerApp /></RoleGate> },
      { path: '/customer_contact/*', element: <RoleGate role="customerContact"><CustomerContactApp /></RoleGate> },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigate((to, opts) => void router.navigate(to, opts));
  return router;
}
