import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { resources } from '../i18n/resources';
import { decideAccess } from '../auth/guards';
import { ROLE_PREFIX, ROLES, type Role } from '../auth/roles';
import { contactMenuVisibility, SERVICE_PERMISSIONS } from '../auth/permissions';
import { visibleMenu } from '../layout/menuItems';
import { menuFor, routePattern, routesFor, type MenuDef } from './roleTables';

/** A role's tables as the role area uses them. */
interface RoleModule {
  role: Role;
  prefix: string;
  routes: ReturnType<typeof routesFor>;
  menu: MenuDef[];
}
const moduleOf = (role: Role): RoleModule => ({ role, prefix: ROLE_PREFIX[role], routes: routesFor(role), menu: menuFor(role) });
const modules = ROLES.map(moduleOf);
const [adminModule, lawyerModule, salesModule, customerModule, customerContactModule] = modules;

function leaves(menu: MenuDef[]): MenuDef[] {
  return menu.flatMap((m) => (m.children ? leaves(m.children) : [m]));
}

function all(menu: MenuDef[]): MenuDef[] {
  return menu.flatMap((m) => [m, ...(m.children ? all(m.children) : [])]);
}

function routeFor(module: RoleModule, path: string) {
  return module.routes.find((r) => matchPath({ path: `${module.prefix}${routePattern(r)}`, end: true }, path));
}

describe.each(modules.map((m) => [m.role, m] as const))('%s route table', (_role, module) => {
  it('every menu link opens a route of the same role', () => {
    for (const item of leaves(module.menu)) {
      // Under the role's own prefix (a link to another role's area would end on Page Not Found).
      expect(item.path?.startsWith(module.prefix), `${item.id} → ${item.path}`).toBe(true);
      expect(routeFor(module, item.path!), `${item.id} → ${item.path}`).toBeDefined();
      expect(decideAccess({ pathname: item.path!, hasToken: true, role: module.role })).toEqual({ kind: 'allow' });
    }
  });

  it('has a dashboard at the prefix root', () => {
    expect(routeFor(module, module.prefix)?.title).toBe('dashboard');
  });

  it('has no duplicate paths or menu ids', () => {
    const paths = module.routes.map((r) => routePattern(r));
    expect(new Set(paths).size).toBe(paths.length);
    const ids = all(module.menu).map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every page title and menu label is translated in sv and en', () => {
    for (const lang of ['sv', 'en']) {
      for (const r of module.routes) expect(resources[lang].routes, `${lang} routes:${r.title}`).toHaveProperty(r.title);
      for (const m of all(module.menu)) expect(resources[lang].menu, `${lang} menu:${m.labelKey}`).toHaveProperty(m.labelKey);
    }
  });
});

describe('menus per spec §2', () => {
  const top = (m: RoleModule) => m.menu.map((i) => i.id);

  it('admin', () => {
    expect(top(adminModule)).toEqual([
      'dashboard', 'cases', 'lawyers', 'customers', 'sales-persons', 'statistics', 'freja-academy', 'settings',
    ]);
    const byId = Object.fromEntries(adminModule.menu.map((m) => [m.id, m]));
    expect(byId.customers.children?.map((c) => c.labelKey)).toEqual([
      'customersActive', 'customersPending', 'customersInactive', 'addCompanyUser', 'addBusinessSector', 'department', 'inkassoHandOvers', 'dataRequests',
    ]);
    expect(byId.statistics.children?.map((c) => c.labelKey)).toEqual([
      'statisticsAccount', 'statisticsCustomer', 'statisticsFinancial', 'statisticsActivity', 'statisticsLegal',
    ]);
    expect(byId.settings.children?.map((c) => c.labelKey)).toEqual(['packages', 'servicePlans', 'knowledgeSectors', 'termsAndPrivacy', 'publicDocuments', 'supportTickets', 'audit']);
  });

  it('lawyer', () => {
    // The video-meeting add-on adds the lawyer's Video meetings to spec §2's menu.
    expect(top(lawyerModule)).toEqual(['dashboard', 'cases', 'customers', 'statistics', 'freja-academy', 'video-meetings']);
  });

  it('sales', () => {
    expect(top(salesModule)).toEqual(['dashboard', 'cases', 'customers', 'statistics', 'freja-academy']);
  });

  it('customer', () => {
    expect(top(customerModule)).toEqual([
      'dashboard', 'cases', 'documents', 'users', 'services', 'statistics', 'support', 'freja-academy',
    ]);
  });

  it('customer contact', () => {
    expect(top(customerContactModule)).toEqual([
      'dashboard', 'cases', 'documents', 'users', 'services', 'statistics', 'support', 'academy',
    ]);
  });

  it('no role but admin has Settings', () => {
    for (const m of [lawyerModule, salesModule, customerModule, customerContactModule]) expect(top(m)).not.toContain('settings');
  });
});

describe('customer-contact menu (spec §5)', () => {
  const PERMISSIONS = [...SERVICE_PERMISSIONS, 'view_contact', 'add_case'];
  const subsets = Array.from({ length: 1 << PERMISSIONS.length }, (_, mask) => PERMISSIONS.filter((_, i) => mask & (1 << i)));

  it('shows Users and Services exactly as the permission rule says, for every set of permissions', () => {
    for (const permissions of subsets) {
      const ids = visibleMenu(customerContactModule.menu, { userType: 4, permissions }).map((m) => m.id);
      const rule = contactMenuVisibility(4, permissions);
      expect(ids.includes('users'), permissions.join()).toBe(rule.users);
      expect(ids.includes('services'), permissions.join()).toBe(rule.services);
    }
  });

  it('a customer sees every entry', () => {
    const all = (menu: MenuDef[]): string[] => menu.flatMap((m) => [m.id, ...all(m.children ?? [])]);
    expect(all(visibleMenu(customerModule.menu, { userType: 3, permissions: [] }))).toEqual(all(customerModule.menu));
  });
});
