import type { Permission } from '../../types/users';

/**
 * The contact form's checkboxes in the order of spec §3's labels. The spec
 * lists eight labels for six codes; the reading chosen (also documented in
 * shared/src/domain/permissions.rs):
 * create new cases → add_case, credit information → view_bisnode, digital
 * signing → view_verify, contract check → view_kontracto, administrate users
 * → view_contact; view_inkasso (no label in the spec) is "debt collection".
 * "chat in cases" → chat_in_cases (writing in the company's case conversations).
 * "View all cases" and "view time bank" have no code: every contact has them,
 * which the form says in a note instead of offering checkboxes that would
 * change nothing.
 */
export const PERMISSION_OPTIONS: readonly Permission[] = [
  'add_case',
  'chat_in_cases',
  'view_bisnode',
  'view_verify',
  'view_kontracto',
  'view_inkasso',
  'view_contact',
];
