import type { Permission } from '../types/users';
import { USER_TYPE } from './roles';


export const SERVICE_PERMISSIONS: readonly Permission[] = [
  'view_verify',
  'view_bisnode',
  'view_inkasso',
  'view_kontracto',
];

function isContact(userType: number | string | null | undefined): boolean {
  return userType != null && userType !== '' && Number(userType) === USER_TYPE.customerContact;
}

/**
 * Whether the user holds `permission`. Non-contacts hold everything; contacts
 * only what is listed (a missing list means nothing is held).
 */
export function hasPermission(
  userType: number | string | null | undefined,
  permissions: readonly string[] | null | undefined,
  permission: Permission,
): boolean {
  if (!isContact(userType)) return true;
  return (permissions ?? []).includes(permission);
}

export interface ContactMenuVisibility {
  users: boolean;
  services: boolean;
}

/**
 * Spec §5: the Services menu entry shows if view_verify, view_bisnode,
 * view_inkasso or view_kontracto is held; Users needs view_contact.
 * Non-contacts see all.
 */
export function contactMenuVisibility(
  userType: number | string | null | undefined,
  permissions: readonly string[] | null | undefined,
): ContactMenuVisibility {
  return {
    users: hasPermission(userType, permissions, 'view_contact'),
    services: SERVICE_PERMISSIONS.some((p) => hasPermission(userType, permissions, p)),
  };
}
