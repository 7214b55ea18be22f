/** Each role's route table and left menu (spec §2), derived from the route catalogue. */
import type { ReactNode } from 'react';
import { contactMenuVisibility, hasPermission } from '../auth/permissions';
import { ROLE_PREFIX, type Role } from '../auth/roles';
import type { Permission } from '../types/users';
import { ENTRIES, MENU_GROUPS, type BadgeKey, type MenuGroupId, type MenuPlacement, type RouteId } from './catalogue';
import { pathFor, routeOf, type RoleRoute } from './pathFor';

/** The role's routes, in catalogue order. */
export function routesFor(role: Role): RoleRoute[] {
  return (Object.keys(ENTRIES) as RouteId[]).flatMap((id) => routeOf(role, id) ?? []);
}

/** A route's path as a router pattern relative to the role prefix ('' = the dashboard; no trailing slash). */
export function routePattern(route: RoleRoute): string {
  return route.path.replace(/\/$/, '');
}

export interface MenuContext {
  userType: number | string | null | undefined;
  permissions: readonly string[];
}

/** One left-menu entry, as the side menu draws it. */
export interface MenuDef {
  /** Stable: data-testid="menu-item-<id>". */
  id: string;
  /** Key in the `menu` namespace. */
  labelKey: string;
  /** Absolute link (leaf entries). */
  path?: string;
  /** The catalogue route a leaf entry opens (its page can be fetched before the click). */
  route?: RouteId;
  icon?: ReactNode;
  children?: MenuDef[];
  /** Shown only when this returns true (customer-contact permissions). */
  visible?: (ctx: MenuContext) => boolean;
  /** A count from `bubbles/` shown as a badge (a group shows the sum of its children's). */
  badge?: BadgeKey;
  /** Absolute: the entry is selected on every page under it. */
  section?: string;
}

/** Customer contacts see an entry only with every listed permission (spec §5); everyone else sees it. */
function contactVisibility(needs: Array<Permission | undefined>): MenuDef['visible'] {
  const held = needs.filter((p): p is Permission => !!p);
  if (!held.length) return undefined;
  return (ctx) => held.every((p) => hasPermission(ctx.userType, ctx.permissions, p));
}

/**
 * The role's left menu: each route's menu places (with the entry's look)
 * sorted by order, grouped under MENU_GROUPS; a group with no entry for the
 * role is left out. A contact-only permission of the route or of the place
 * hides the entry from contacts without it.
 */
export function menuFor(role: Role): MenuDef[] {
  const top: Array<{ order: number; def: MenuDef }> = [];
  const grouped = new Map<MenuGroupId, Array<{ order: number; def: MenuDef }>>();
  for (const route of routesFor(role)) {
    const look = ENTRIES[route.id].menu;
    for (const use of route.menu) {
      const place = { ...look, ...(typeof use === 'number' ? { order: use } : use) } as MenuPlacement;
      if (!place.id || !place.label) throw new Error(`menuFor(${role}): menu place of '${route.id}' has no id or label`);
      const def: MenuDef = {
        id: place.id,
        labelKey: place.label,
        path: pathFor(role, route.id),
        route: route.id,
        ...(place.group ? {} : place.icon ? { icon: place.icon } : {}),
        ...(place.badge ? { badge: place.badge } : {}),
        ...(place.section ? { section: `${ROLE_PREFIX[role]}${place.section}` } : {}),
      };
      const visible = role === 'customerContact' ? contactVisibility([route.contactNeeds, place.contactNeeds]) : undefined;
      if (visible) def.visible = visible;
      if (place.group) {
        const list = grouped.get(place.group) ?? [];
        list.push({ order: place.order, def });
        grouped.set(place.group, list);
      } else {
        top.push({ order: place.order, def });
      }
    }
  }
  const byOrder = (a: { order: number }, b: { order: number }) => a.order - b.order;
  for (const [id, entries] of grouped) {
    const group = MENU_GROUPS[id];
    const order = group.order[role];
    if (order === undefined) throw new Error(`menuFor(${role}): the menu group '${id}' has no order for the role`);
    const def: MenuDef = { id, labelKey: group.label, icon: group.icon, children: entries.sort(byOrder).map((e) => e.def) };
    // Spec §5: a contact's Services entry shows while any service permission is held (contract check, always
    // shown, needs none of its own, so the group's own rule decides).
    if (role === 'customerContact' && id === 'services') def.visible = (ctx) => contactMenuVisibility(ctx.userType, ctx.permissions).services;
    top.push({ order, def });
  }
  return top.sort(byOrder).map((e) => e.def);
}

/**
 * Whether the role's left menu, as `ctx` (a contact's permissions) shows it, has an entry opening `route`:
 * a link elsewhere on a page (e.g. the dashboard's "All meetings") is offered only where the menu offers the page.
 */
export function menuShows(role: Role, route: RouteId, ctx: MenuContext): boolean {
  const seen = (defs: MenuDef[] | undefined): boolean =>
    (defs ?? []).some((d) => (!d.visible || d.visible(ctx)) && (d.route === route || seen(d.children)));
  return seen(menuFor(role));
}
