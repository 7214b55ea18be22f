import { describe, expect, it } from 'vitest';
import { decideAccess, isPublicPath, postLoginTarget, PUBLIC_PATHS } from './guards';

describe('decideAccess (spec §2 guards)', () => {
  it('no token on a role prefix → /login remembering the origin (path + query)', () => {
    expect(decideAccess({ pathname: '/admin/customers/', hasToken: false, role: 'none' })).toEqual({
      kind: 'login',
      from: '/admin/customers/',
    });
    expect(decideAccess({ pathname: '/admin/interest/', search: '?search=acme', hasToken: false, role: 'none' })).toEqual({
      kind: 'login',
      from: '/admin/interest/?search=acme',
    });
    expect(decideAccess({ pathname: '/user', hasToken: false, role: 'none' }).kind).toBe('login');
  });

  it('token but wrong prefix → page not found', () => {
    expect(decideAccess({ pathname: '/admin/', hasToken: true, role: 'lawyer' })).toEqual({ kind: 'notFound' });
    expect(decideAccess({ pathname: '/lawyer/cases/', hasToken: true, role: 'admin' })).toEqual({ kind: 'notFound' });
    expect(decideAccess({ pathname: '/customer_contact/', hasToken: true, role: 'customer' })).toEqual({ kind: 'notFound' });
    expect(decideAccess({ pathname: '/user/', hasToken: true, role: 'customerContact' })).toEqual({ kind: 'notFound' });
    expect(decideAccess({ pathname: '/sales/', hasToken: true, role: 'none' })).toEqual({ kind: 'notFound' });
  });

  it('own prefix → allowed', () => {
    expect(decideAccess({ pathname: '/admin/', hasToken: true, role: 'admin' })).toEqual({ kind: 'allow' });
    expect(decideAccess({ pathname: '/admin/customers/', hasToken: true, role: 'admin' })).toEqual({ kind: 'allow' });
    expect(decideAccess({ pathname: '/lawyer/cases/details/5', hasToken: true, role: 'lawyer' })).toEqual({ kind: 'allow' });
    expect(decideAccess({ pathname: '/sales', hasToken: true, role: 'sales' })).toEqual({ kind: 'allow' });
    expect(decideAccess({ pathname: '/user/services/inkasso/', hasToken: true, role: 'customer' })).toEqual({ kind: 'allow' });
    expect(decideAccess({ pathname: '/customer_contact/users/', hasToken: true, role: 'customerContact' })).toEqual({
      kind: 'allow',
    });
  });

  it('public route when signed in → own dashboard', () => {
    for (const p of PUBLIC_PATHS) {
      expect(decideAccess({ pathname: p, hasToken: true, role: 'customer' })).toEqual({ kind: 'dashboard', to: '/user/' });
    }
    expect(decideAccess({ pathname: '/login/', hasToken: true, role: 'admin' })).toEqual({ kind: 'dashboard', to: '/admin/' });
    expect(decideAccess({ pathname: '/', hasToken: true, role: 'customerContact' })).toEqual({
      kind: 'dashboard',
      to: '/customer_contact/',
    });
  });

  it('public route when signed out → allowed', () => {
    for (const p of PUBLIC_PATHS) {
      expect(decideAccess({ pathname: p, hasToken: false, role: 'none' })).toEqual({ kind: 'allow' });
    }
  });

  it('unknown paths → page not found, signed in or not', () => {
    expect(decideAccess({ pathname: '/nowhere', hasToken: false, role: 'none' })).toEqual({ kind: 'notFound' });
    expect(decideAccess({ pathname: '/administrator', hasToken: true, role: 'admin' })).toEqual({ kind: 'notFound' });
    expect(decideAccess({ pathname: '/login/extra', hasToken: false, role: 'none' })).toEqual({ kind: 'notFound' });
  });

  it('knows the public routes of spec §2', () => {
    expect(isPublicPath('/approve/customer')).toBe(true);
    expect(isPublicPath('/confirm/account/')).toBe(true);
    expect(isPublicPath('/recovery/account')).toBe(true);
    expect(isPublicPath('/admin/')).toBe(false);
  });
});

describe('postLoginTarget', () => {
  it('returns the remembered origin when it belongs to the role', () => {
    expect(postLoginTarget('admin', '/admin/customers/')).toBe('/admin/customers/');
    expect(postLoginTarget('admin', '/admin/interest/?search=x')).toBe('/admin/interest/?search=x');
  });

  it("falls back to the role's dashboard otherwise", () => {
    expect(postLoginTarget('lawyer', '/admin/customers/')).toBe('/lawyer/');
    expect(postLoginTarget('customer', null)).toBe('/user/');
    expect(postLoginTarget('sales', '/login')).toBe('/sales/');
    expect(postLoginTarget('customerContact', undefined)).toBe('/customer_contact/');
  });
});
