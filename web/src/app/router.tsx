import { createElement, lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ROLE_PREFIX, ROLES } from '../auth/roles';
import { setNavigate } from '../navigation';
import Landing from '../pages/public/Landing';
import Login from '../pages/public/Login';
import PublicPlaceholder from '../pages/public/PublicPlaceholder';
import Root from './Root';
import { PublicOnly, RoleGate } from './guards';

// The role areas (layout, route catalogue) load lazily; each page is its own chunk (app/pages.tsx).
const RoleArea = lazy(() => import('./RoleArea'));

// The landing and login pages are in the entry chunk (every visitor sees one of them first); the other
// public pages load with their route (react-router's `lazy`: the current page stays until the chunk is in,
// so nothing flashes or shifts), and do not weigh on the first page's budget (web/src/budget.test.ts).
const TwoFactorLogin = () => import('../pages/public/TwoFactorLogin');
const RecoverPassword = () => import('../pages/public/RecoverPassword');
const ConfirmPassword = () => import('../pages/public/ConfirmPassword');
const Registration = () => import('../pages/public/Registration');
const NotFound = () => import('../pages/NotFound');

const publicPlaceholders: Array<[string, string]> = [];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/', element: <PublicOnly><Landing /></PublicOnly> },
      { path: '/login', element: <PublicOnly><Login /></PublicOnly> },
      { path: '/authentication', lazy: async () => ({ element: <PublicOnly>{createElement((await TwoFactorLogin()).default)}</PublicOnly> }) },
      { path: '/recover-password', lazy: async () => ({ element: <PublicOnly>{createElement((await RecoverPassword()).default)}</PublicOnly> }) },
      { path: '/recovery/account', lazy: async () => ({ element: <PublicOnly>{createElement((await ConfirmPassword()).default, { variant: 'recovery' })}</PublicOnly> }) },
      { path: '/confirm/account', lazy: async () => ({ element: <PublicOnly>{createElement((await ConfirmPassword()).default, { variant: 'confirm' })}</PublicOnly> }) },
      { path: '/approve/customer', lazy: async () => ({ element: <PublicOnly>{createElement((await ConfirmPassword()).default, { variant: 'approve' })}</PublicOnly> }) },
      { path: '/registration', lazy: async () => ({ element: <PublicOnly>{createElement((await Registration()).default)}</PublicOnly> }) },
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
      { path: '*', lazy: async () => ({ Component: (await NotFound()).default }) },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigate((to, opts) => void router.navigate(to, opts));
  return router;
}
