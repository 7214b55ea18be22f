import type { ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { ROLE_PREFIX, ROLES } from '../auth/roles';
import { loadAreaTexts, loadTexts } from '../i18n';
import { SERVER_NAMESPACE } from '../i18n/groups';
import Login from '../pages/public/Login';
import Root from './Root';
import { preloadable } from './preloadable';
import { themedModule } from '../components/themed';
import { PublicOnly, RoleGate } from './guards';

/**
 * A lazily loaded page drawn inside antd's theme (components/AntdTheme.tsx, loaded with it): the entry holds no antd, so
 * what draws antd components brings the ConfigProvider along (login, two-factor and registration draw none).
 */
function themed<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return preloadable(() => themedModule(load));
}

// The role areas (layout, route catalogue) load lazily, with the areas' texts (i18n/groups.ts);
// each page is its own chunk (app/pages.tsx). Not in antd's theme: the area's shell and dashboards draw no antd
// (src/budget.test.ts), and each page that does loads the theme with itself (app/pages.tsx `lazyPage`).
const RoleArea = preloadable(async () => {
  const [area] = await Promise.all([import('./RoleArea'), loadAreaTexts()]);
  return area;
});

// The login page is in the entry chunk (every user signs in there; the landing page at `/` is static HTML); the other
// public pages load with their route and do not weigh on the first page's budget (web/src/budget.test.ts). While a
// page's chunk loads, the current page stays: navigations are transitions (BrowserRouter) and Root's Suspense already
// shows content, so React keeps it until the new page can draw (nothing flashes or shifts).
function publicPage<P extends object>(path: string, load: () => Promise<{ default: ComponentType<P> }>, props: P = {} as P, plain = false): RouteObject {
  const Page = plain ? preloadable(load) : themed(load);
  FIRST_PAGE.set(path, Page.preload);
  return {
    path,
    element: (
      <PublicOnly>
        <Page {...props} />
      </PublicOnly>
    ),
  };
}

/** The public pages' modules by their path, for the first page of a visit (`preloadFirstPage`). */
const FIRST_PAGE = new Map<string, () => Promise<unknown>>();

/**
 * Loads the module of the lazily loaded public page at `pathname` (main.tsx, before the first render; its chunk is
 * preloaded by index.html's hints): the page then draws at once, without a fallback before it (app/preloadable.ts).
 */
export function preloadFirstPage(pathname: string): Promise<unknown> {
  return FIRST_PAGE.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname)?.() ?? Promise.resolve();
}
/**
 * A page loaded with its namespaces (i18n/groups.ts `OWN_CHUNK_NAMESPACES`): the account pages' and registration's texts
 * are not on the login page; the password pages' rules also speak in the server's texts (validation/auth.ts).
 */
const withTexts =
  <M,>(ns: readonly string[], load: () => Promise<M>) =>
  async () =>
    (await Promise.all([load(), loadTexts(ns)]))[0];
const confirmPassword = withTexts(['account', SERVER_NAMESPACE], () => import('../pages/public/ConfirmPassword'));
const LegalPage = themed(() => import('../pages/public/LegalPage'));
const Unsubscribe = themed(() => import('../pages/public/Unsubscribe'));
FIRST_PAGE.set('/terms', LegalPage.preload).set('/privacy', LegalPage.preload).set('/unsubscribe', Unsubscribe.preload);
const NotFound = themed(() => import('../pages/NotFound'));

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      // `/` is the static landing.html (served by the gateway and CloudFront); the SPA's landing page only when reached inside the app.
      publicPage('/', () => import('../pages/public/Landing')),
      { path: '/login', element: <PublicOnly><Login /></PublicOnly> },
      publicPage('/authentication', withTexts(['account'], () => import('../pages/public/TwoFactorLogin')), {}, true),
      publicPage('/recover-password', withTexts(['account', SERVER_NAMESPACE], () => import('../pages/public/RecoverPassword'))),
      publicPage('/recovery/account', confirmPassword, { variant: 'recovery' }),
      publicPage('/confirm/account', confirmPassword, { variant: 'confirm' }),
      publicPage('/approve/customer', confirmPassword, { variant: 'approve' }),
      publicPage('/registration', withTexts(['registration'], () => import('../pages/public/Registration')), {}, true),
      // The terms and the privacy policy: for anyone, signed in or not (linked from registration, footer, landing page).
      { path: '/terms', element: <LegalPage kind="terms" /> },
      { path: '/privacy', element: <LegalPage kind="privacy" /> },
      // A mail's unsubscribe link: works signed in or not.
      { path: '/unsubscribe', element: <Unsubscribe /> },
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

/**
 * The app's routes under a router (App: BrowserRouter; page tests: MemoryRouter). Not react-router's data router
 * (createBrowserRouter): no page uses loaders, actions or fetchers, and it is 18.6 KiB gzip of every page.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
