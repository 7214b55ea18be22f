/**
 * Where a role's pages live: every link and redirect to a role's page is
 * built here, from the route catalogue (spec §2).
 */
import { useLocation } from 'react-router';
import { ROLE_PREFIX, roleOfPath, type Role } from '../auth/roles';
import type { Permission } from '../types/users';
import { ENTRIES, type MenuUse, type PageKey, type RouteId } from './catalogue';

/** One route as a role has it: the catalogue entry with the role's differences applied. */
export interface RoleRoute {
  id: RouteId;
  /** Relative to the role prefix, as links show it (':name' = a parameter). */
  path: string;
  /** Key in the `routes` namespace. */
  title: string;
  page?: PageKey;
  /** For customer contacts only: the permission the route needs (spec §5). */
  contactNeeds?: Permission;
  /** The role's menu places (see roleTables.ts). */
  menu: MenuUse[];
}

/** The route `id` as `role` has it, or null when the role has no such route. */
export function routeOf(role: Role, id: RouteId): RoleRoute | null {
  const entry = ENTRIES[id];
  const use = entry?.roles[role];
  if (!use) return null;
  return {
    id,
    path: use.path ?? entry.path,
    title: use.title ?? entry.title,
    page: use.page ?? entry.page,
    contactNeeds: role === 'customerContact' ? entry.contactNeeds : undefined,
    menu: use.menu === undefined ? [] : Array.isArray(use.menu) ? use.menu : [use.menu],
  };
}

/** Whether `role` has the route `id` (e.g. to show a link only to the roles that may follow it). */
export function hasRoute(role: Role, id: RouteId): boolean {
  return routeOf(role, id) !== null;
}

export type PathParams = Record<string, string | number>;
export type SearchParams = Record<string, string | number>;

/**
 * The absolute path of route `id` for `role`, its `:name` parameters filled
 * from `params` (URL-encoded) and `search` appended as a query string.
 *
 * Throws when the role has no such route (ask `hasRoute` first where a role
 * may lack it), when a parameter is missing, or when `params` names one the
 * path does not have: these are programming errors, not user input.
 */
export function pathFor(role: Role, id: RouteId, params: PathParams = {}, search?: SearchParams): string {
  const route = routeOf(role, id);
  if (!route) throw new Error(`pathFor: the ${role} area has no route '${id}' (spec §2)`);
  const used = new Set<string>();
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`pathFor(${role}, ${id}): missing parameter '${name}'`);
    used.add(name);
    return encodeURIComponent(String(value));
  });
  const unknown = Object.keys(params).filter((k) => !used.has(k));
  if (unknown.length) throw new Error(`pathFor(${role}, ${id}): unknown parameter(s) ${unknown.join(', ')}`);
  const query = Object.entries(search ?? {})
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${ROLE_PREFIX[role]}${path}${query ? `?${query}` : ''}`;
}

/**
 * The role whose area the current page is in (its URL prefix). The role
 * guard lets only that role's signed-in user in, so it is the signed-in
 * role; unlike the session it stays put while a sign-out navigates away.
 * Pages link with `pathFor(useAreaRole(), id, params)`.
 */
export function useAreaRole(): Role {
  const { pathname } = useLocation();
  const role = roleOfPath(pathname);
  if (!role) throw new Error(`useAreaRole: ${pathname} is in no role area`);
  return role;
}
