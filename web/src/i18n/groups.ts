/**
 * The two groups of text namespaces (for the pages' budgets): what the public pages (login,
 * two-factor, registration, password recovery, terms) and anything around
 * them (errors, server messages, page titles) need is in the language's chunk
 * (`bundle.<lang>.ts`); the role areas' namespaces are a second chunk
 * (`area.<lang>.ts`) that loads with the area (app/router.tsx), so a visitor
 * does not download the texts of screens they cannot see yet.
 * i18n/groups.test.ts checks that every namespace is in exactly one group and
 * that the public pages use only public namespaces.
 */
export const PUBLIC_NAMESPACES = ['common', 'public', 'account', 'registration', 'errors', 'server', 'routes', 'legal'] as const;
