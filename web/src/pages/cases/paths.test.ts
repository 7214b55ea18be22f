import { describe, expect, it } from 'vitest';
import { casePaths } from './paths';

const user = (user_type: number, is_staff = false) => ({ email: 'x@example.com', id: 1, is_staff, user_type, full_name: 'X', uid: 'u', image: 'not set' });

describe('casePaths (spec §2 case routes per role)', () => {
  it('sends each role to its own edit screen', () => {
    expect(casePaths(user(0, true)).edit?.('c1')).toBe('/admin/case/update/c1/');
    expect(casePaths(user(2)).edit?.('c1')).toBe('/sales/case/update/c1/');
    expect(casePaths(user(1)).edit?.('c1')).toBe('/lawyer/cases/update/c1');
    expect(casePaths(user(3)).edit?.('c1')).toBe('/user/cases/edit/c1');
    expect(casePaths(user(4)).edit?.('c1')).toBe('/customer_contact/cases/edit/c1');
  });
  it('creates through the call each role may use', () => {
    expect([0, 2, 1, 3, 4].map((t) => casePaths(user(t, t === 0)).via)).toEqual(['staff', 'staff', 'lawyer', 'customer', 'customer']);
    expect(casePaths(user(3)).create).toBe('/user/cases/create');
    expect(casePaths(user(2)).create).toBe('/sales/case/create');
  });
  it('gives nothing to a user without a role', () => {
    const p = casePaths(null);
    expect([p.role, p.edit, p.via, p.create]).toEqual([null, null, null, null]);
  });
});
