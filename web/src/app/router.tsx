import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ROLE_PREFIX, ROLES } from '../auth/roles';
import { loadAreaTexts } from '../i18n';
import { setNavigate } from '../navigation';
import Login from '../pages/public/Login';
import Root from './Root';
import { PublicOnly, RoleGate } from './guards';

// The role areas (layout, route catalogue) load lazily, with the areas' texts (i18n/groups.ts);
// each page is its own chunk (app/pages.tsx).
const RoleArea = lazy(() => Promise.all([import('./RoleArea'), loadAreaTexts()]).then(([area]) => area));

// The login page is in the entry chunk (every user signs in there; the landing page at `/` is static HTML); the other
// public pages load with their route (react-router's `lazy`: the current page stays until the chunk is in,
// so nothing flashes or shifts), and do not weigh on the first page's budget (web/src/budget.test.ts).
function lazyPublic<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, props: P = {} as P) {
  return async () => {
    const { default: Page } = await load();
    return {
      element: (
        <PublicOnly>
          <Page {...props} />
        </PublicOnly>
      ),
    };
  };
}
const confirmPassword = () => import('../pages/public/ConfirmPassword');
const LegalPage = lazy(() => import('../pages/public/LegalPage'));
function LegalPageOf({ kind }: { kind: 'terms' | 'privacy' }) {
  return (
    <Suspense fallback={null}>
      <LegalPage kind={kind} />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      // `/` is the static landing.html (served by the gateway and CloudFront); the SPA's landing page only when reached inside the app.
      { path: '/', lazy: lazyPublic(() => import('../pages/public/Landing')) },
      { path: '/login', element: <PublicOnly><Login /></PublicOnly> },
      { path: '/authentication', lazy: lazyPublic(() => import('../pages/public/TwoFactorLogin')) },
      { path: '/recover-password', lazy: lazyPublic(() => import('../pages/public/RecoverPassword')) },
      { path: '/recovery/account', lazy: lazyPublic(confirmPassword, { variant: 'recovery' }) },
      { path: '/confirm/account', lazy: lazyPublic(confirmPassword, { variant: 'confirm' }) },
      { path: '/approve/customer', lazy: lazyPublic(confirmPassword, { variant: 'approve' }) },
      { path: '/registration', lazy: lazyPublic(() => import('../pages/public/Registration')) },
      // The terms and the privacy policy: for anyone, signed in or not (linked from registration, footer, landing page).
      { path: '/terms', lazy: async () => ({ Component: () => <LegalPageOf kind="terms" /> }) },
      { path: '/privacy', lazy: async () => ({ Component: () => <LegalPageOf kind="privacy" /> }) },
      // Each role's area under its prefix (spec §2): /admin/, /lawyer/, /sales/, /user/, /customer_contact/.
      ...ROLES.map((role) => ({
        path: `${ROLE_PREFIX[role]}*`,
        element: (
          <RoleGate role={role}>
            <RoleArea role={role} />
          </RoleGate>
        ),
      })),
      { path: '*', lazy: async () => ({ Component: (await import('../pages/NotFound')).default }) },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigate((to, opts) => void router.navigate(to, opts));
  return router;
}
