import { describe, expect, it } from 'vitest';
import { dashboardPath, isUnderPrefix, resolveRole, roleOfPath, ROLE_PREFIX } from './roles';

describe('resolveRole (spec §6)', () => {
  it('is_staff wins over any user_type', () => {
    expect(resolveRole({ is_staff: true, user_type: 3 })).toBe('admin');
    expect(resolveRole({ is_staff: true, user_type: null })).toBe('admin');
  });

  it.each([
    [1, 'lawyer'],
    [2, 'sales'],
    [3, 'customer'],
    [4, 'customerContact'],
  ] as const)('user_type %s → %s', (userType, role) => {
    expect(resolveRole({ is_staff: false, user_type: userType })).toBe(role);
  });

  it('anything else is none', () => {
    expect(resolveRole({ is_staff: false, user_type: 0 })).toBe('none');
    expect(resolveRole({ is_staff: false, user_type: 5 })).toBe('none');
    expect(resolveRole({ is_staff: false, user_type: null })).toBe('none');
    expect(resolveRole(null)).toBe('none');
    expect(resolveRole(undefined)).toBe('none');
  });
});

describe('prefixes', () => {
  it('each role dashboard is its prefix root', () => {
    expect(dashboardPath('admin')).toBe('/admin/');
    expect(dashboardPath('lawyer')).toBe('/lawyer/');
    expect(dashboardPath('sales')).toBe('/sales/');
    expect(dashboardPath('customer')).toBe('/user/');
    expect(dashboardPath('customerContact')).toBe('/customer_contact/');
  });

  it('matches whole path segments only', () => {
    expect(isUnderPrefix('/admin', ROLE_PREFIX.admin)).toBe(true);
    expect(isUnderPrefix('/admin/', ROLE_PREFIX.admin)).toBe(true);
    expect(isUnderPrefix('/admin/customers/', ROLE_PREFIX.admin)).toBe(true);
    expect(isUnderPrefix('/administrator', ROLE_PREFIX.admin)).toBe(false);
    expect(isUnderPrefix('/users', ROLE_PREFIX.customer)).toBe(false);
  });

  it('finds the owner of a path', () => {
    expect(roleOfPath('/user/cases/')).toBe('customer');
    expect(roleOfPath('/customer_contact/users/')).toBe('customerContact');
    expect(roleOfPath('/sales')).toBe('sales');
    expect(roleOfPath('/login')).toBeNull();
    expect(roleOfPath('/nowhere')).toBeNull();
  });
});
