import { describe, expect, it } from 'vitest';
import { menuFor } from '../routes/roleTables';
import { selectedMenu, visibleMenu } from './menuItems';

const adminModule = { menu: menuFor('admin') };
const customerContactModule = { menu: menuFor('customerContact') };

describe('visibleMenu', () => {
  const ids = (userType: number, permissions: string[]) =>
    visibleMenu(customerContactModule.menu, { userType, permissions }).map((m) => m.id);

  it('hides Users and Services from a contact without permissions', () => {
    expect(ids(4, [])).toEqual(['dashboard', 'cases', 'documents', 'statistics', 'support', 'academy']);
  });

  it('shows Users with view_contact and only the held services', () => {
    const menu = visibleMenu(customerContactModule.menu, { userType: 4, permissions: ['view_contact', 'view_inkasso'] });
    expect(menu.map((m) => m.id)).toContain('users');
    expect(menu.find((m) => m.id === 'services')?.children?.map((c) => c.id)).toEqual(['services-inkasso', 'services-contract-check']);
  });

  it('shows contract check to every contact who sees Services, with or without view_kontracto ("always shown")', () => {
    const services = (permissions: string[]) =>
      visibleMenu(customerContactModule.menu, { userType: 4, permissions }).find((m) => m.id === 'services')?.children?.map((c) => c.id);
    expect(services(['view_bisnode'])).toContain('services-contract-check');
    expect(services(['view_kontracto'])).toEqual(['services-contract-check']);
  });
});

describe('selectedMenu', () => {
  it('selects exact and nested paths, the dashboard only exactly', () => {
    expect(selectedMenu(adminModule.menu, '/admin/', '/admin/')).toEqual({ id: 'dashboard', parents: [] });
    expect(selectedMenu(adminModule.menu, '/admin/customers/pending/', '/admin/')).toEqual({
      id: 'customers-pending',
      parents: ['customers'],
    });
    expect(selectedMenu(adminModule.menu, '/admin/customers/details/abc', '/admin/')?.id).toBe('customers-active');
    expect(selectedMenu(adminModule.menu, '/admin/cases/details/5', '/admin/')?.id).toBe('cases');
    expect(selectedMenu(adminModule.menu, '/admin/interest/', '/admin/')).toBeNull();
  });
});
