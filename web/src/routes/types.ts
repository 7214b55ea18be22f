import type { ComponentType, ReactNode } from 'react';
import type { Role } from '../auth/roles';
import type { Permission } from '../types/users';

/** One page under a role prefix. `path` is relative to the prefix ('' = dashboard). */
export interface RouteDef {
  path: string;
  /** Key in the `routes` namespace: the page title. */
  titleKey: string;
  /** The page; omitted = shared placeholder titled with `titleKey`. */
  Component?: ComponentType<{ titleKey: string }>;
  /** Customer-contact permission needed (spec §5); without it → redirect to the prefix root. */
  requires?: Permission;
}

export interface MenuContext {
  userType: number | string | null | undefined;
  permissions: readonly string[];
}

/** One left-menu entry. `id` is stable (used for data-testid="menu-item-<id>"). */
export interface MenuDef {
  id: string;
  /** Key in the `menu` namespace. */
  labelKey: string;
  /** Absolute link (leaf entries). */
  path?: string;
  icon?: ReactNode;
  children?: MenuDef[];
  /** Shown only when this returns true (customer-contact permissions). */
  visible?: (ctx: MenuContext) => boolean;
  /** A count from `bubbles/` shown as a badge (a group shows the sum of its children's). */
  badge?: 'pending_cases' | 'pending_customers';
}

export interface RoleModule {
  role: Role;
  prefix: string;
  routes: RouteDef[];
  menu: MenuDef[];
}
