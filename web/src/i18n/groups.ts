/**
 * The groups of text namespaces (for the pages' budgets): what the login page and anything around
 * it (errors, page titles, the terms) needs is in the language's chunk
 * (`bundle.<lang>.ts`); a few are chunks of their own (`OWN_CHUNK_NAMESPACES`); the role areas' namespaces are a chunk
 * (`area.<lang>.ts`) that loads with the area (app/router.tsx), so a visitor
 * does not download the texts of screens they cannot see yet.
 * i18n/groups.test.ts checks that every namespace is in exactly one group and
 * that the public pages use only public namespaces.
 */
export const PUBLIC_NAMESPACES = ['common', 'public', 'errors', 'routes', 'legal'] as const;
/**
 * The server's message texts (every error key of the API, ~5 KiB): public pages show them only with an answer, so
 * they are not in the first chunk but a chunk of their own per language, loaded beside the first API call and
 * awaited before its answer is handed back (api/client.ts `request`), with an area, or when a page shows one
 * without a call (i18n/index.ts `useServerTexts`).
 */
export const SERVER_NAMESPACE = 'server';
/**
 * Namespaces in a chunk of their own per language (i18n/index.ts `OWN_CHUNKS`), not on the login page: the server's
 * texts; the account pages' (two-factor sign-in, password recovery; the areas' account settings) and registration's,
 * loaded with their pages (app/router.tsx `withTexts`). An area loads the first two with its own namespaces.
 */
export const OWN_CHUNK_NAMESPACES = [SERVER_NAMESPACE, 'account', 'registration'] as const;
/**
 * The route titles (`routes` namespace) the public pages show (their PublicLayout's `titleKey`): the language's first
 * chunk holds only these (vite.config.ts `publicRouteTitles`), an area brings the rest (i18n/index.ts `loadAreaTexts`).
 */
export const PUBLIC_ROUTE_TITLES = [
  'landing',
  'login',
  'registration',
  'recoverPassword',
  'authentication',
  'approveCustomer',
  'confirmAccount',
  'recoveryAccount',
  'terms',
  'privacy',
  'unsubscribe',
] as const;
/**
 * The areas' namespaces no area's first page shows (the shell, the dashboards and the customer's home use the menus',
 * the notifications', the route titles, the figures', the services' and the rating card's): a chunk of their own
 * (`pages.<lang>.ts`), loaded with the first other page (app/pages.tsx), with what opens from the shell (the customer
 * card) or when the side menu prefetches a page (i18n/index.ts `loadPageTexts`), not with the area
 * (src/budget.test.ts; i18n/groups.test.ts checks what the first pages use).
 */
export const PAGE_NAMESPACES = [
  'caseDocuments',
  'caseHours',
  'cases',
  'catalogue',
  'conflict',
  'content',
  'customerAdmin',
  'customers',
  'people',
  'profile',
  'settings',
  'users',
] as const;
/** Namespaces no area uses (not loaded with one). */
export const PUBLIC_PAGE_NAMESPACES = ['registration'] as const;
