import type { Permission } from '../../types/users';

/**
 * The contact form's checkboxes in the order of spec §3's labels (create new
 * cases, view all cases, chat in cases, view time bank, credit information,
 * digital signing, contract check, administrate users). The spec lists eight
 * labels for six codes; the reading chosen (also documented in
 * shared/src/domain/permissions.rs): create new cases → add_case, credit
 * information → view_bisnode, digital signing → view_verify, contract check →
 * view_kontracto, administrate users → view_contact; view_inkasso (no label
 * in the spec) is "debt collection"; "chat in cases" → chat_in_cases, "view
 * all cases" → view_all_cases (without it: the cases the contact created),
 * "view time bank" → view_time_bank (without it: no hours left anywhere).
 */
export const PERMISSION_OPTIONS: readonly Permission[] = [
  'add_case',
  'view_all_cases',
  'chat_in_cases',
  'view_time_bank',
  'view_bisnode',
  'view_verify',
  'view_kontracto',
  'view_inkasso',
  'view_contact',
];
