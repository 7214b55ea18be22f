import { describe, expect, it } from 'vitest';
import { ROLES } from '../../auth/roles';
import { hasRoute } from '../../routes/pathFor';
import { CASE_TABS, createViaOf } from './caseRules';

describe('case rules per role', () => {
  it('creates through the call each role may use', () => {
    expect(ROLES.map(createViaOf)).toEqual(['staff', 'lawyer', 'staff', 'customer', 'customer']);
  });
  it('has the case tabs per role, each a route of the role', () => {
    const words = Object.fromEntries(ROLES.map((r) => [r, CASE_TABS[r].map((t) => t.word)]));
    expect(words).toEqual({
      admin: ['mine', 'pending', 'available', 'active', 'closed'],
      lawyer: ['my', 'pending', 'available', 'closed'],
      sales: ['all', 'draft', 'available', 'closed'],
      customer: ['my', 'closed', 'draft'],
      customerContact: ['my', 'closed', 'draft'],
    });
    for (const r of ROLES) for (const t of CASE_TABS[r]) expect(hasRoute(r, t.route), `${r} ${t.route}`).toBe(true);
  });
});
