import { describe, expect, it } from 'vitest';
import { contactMenuVisibility, hasPermission } from './permissions';

describe('contact menu permission rule (spec §5)', () => {
  it('non-contacts see all', () => {
    for (const userType of [1, 2, 3, null, undefined]) {
      expect(contactMenuVisibility(userType, [])).toEqual({ users: true, services: true });
    }
  });

  it('a contact without permissions (or with none served) sees neither', () => {
    expect(contactMenuVisibility(4, [])).toEqual({ users: false, services: false });
    expect(contactMenuVisibility(4, undefined)).toEqual({ users: false, services: false });
    expect(contactMenuVisibility('4', null)).toEqual({ users: false, services: false });
  });

  it('Users needs view_contact', () => {
    expect(contactMenuVisibility(4, ['view_contact'])).toEqual({ users: true, services: false });
    expect(contactMenuVisibility(4, ['add_case'])).toEqual({ users: false, services: false });
  });

  it.each(['view_verify', 'view_bisnode', 'view_inkasso', 'view_kontracto'])('Services shows with %s alone', (p) => {
    expect(contactMenuVisibility(4, [p])).toEqual({ users: false, services: true });
  });

  it('hasPermission: contacts need the code, others hold everything', () => {
    expect(hasPermission(4, ['add_case'], 'add_case')).toBe(true);
    expect(hasPermission(4, ['view_contact'], 'add_case')).toBe(false);
    expect(hasPermission(3, [], 'add_case')).toBe(true);
  });
});
