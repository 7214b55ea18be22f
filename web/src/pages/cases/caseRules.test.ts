import { describe, expect, it } from 'vitest';
import { ROLES } from '../../auth/roles';
import { createViaOf, listKindOf } from './caseRules';

describe('case rules per role', () => {
  it('creates through the call each role may use', () => {
    expect(ROLES.map(createViaOf)).toEqual(['staff', 'lawyer', 'staff', 'customer', 'customer']);
  });
  it('lists by the route title', () => {
    expect(['cases', 'myCases', 'pendingCases', 'draftCases', 'availableCases', 'closedCases'].map(listKindOf)).toEqual([
      'my',
      'my',
      'pending',
      'draft',
      'available',
      'closed',
    ]);
  });
});
