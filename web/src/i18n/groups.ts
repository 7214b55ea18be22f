/**
 * The two groups of text namespaces (for the pages' budgets): what the public pages (login,
 * two-factor, registration, password recovery, terms) and anything around
 * them (errors, page titles) need is in the language's chunk
 * (`bundle.<lang>.ts`); the role areas' namespaces are a second chunk
 * (`area.<lang>.ts`) that loads with the area (app/router.tsx), so a visitor
 * does not download the texts of screens they cannot see yet.
 * i18n/groups.test.ts checks that every namespace is in exactly one group and
 * that the public pages use only public namespaces.
 */
export const PUBLIC_NAMESPACES = ['common', 'public', 'account', 'registration', 'errors', 'routes', 'legal'] as const;
/**
 * The server's message texts (every error key of the API, ~5 KiB): public pages show them only with an answer, so
 * they are not in the first chunk but a chunk of their own per language, loaded beside the first API call and
 * awaited before its answer is handed back (api/client.ts `request`), with an area, or when a page shows one
 * without a call (i18n/index.ts `useServerTexts`).
 */
export const SERVER_NAMESPACE = 'server';
