/** Customer-contact and profile DTOs of the API (spec §3 permissions). */

/** Customer-contact permission codes (spec §3). */
export type Permission =
  | 'view_verify'
  | 'view_bisnode'
  | 'view_inkasso'
  | 'view_kontracto'
  | 'view_contact'
  | 'add_case'
  | 'chat_in_cases'
  | 'view_all_cases'
  | 'view_time_bank';

export interface Contact {
  uid: string;
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  full_name: string;
  phone: string | null;
  permissions: Permission[];
  identity_number?: string | null;
  active: boolean;
  customer_id: string | null;
  created_at: string;
}

export interface ContactList {
  results: Contact[];
  /** Cursor of the next page; null on the last one. */
  next: string | null;
}

export interface ContactInput {
  first_name: string;
  last_name: string;
  phone?: string | null;
  permissions: Permission[];
  /** Personnummer (optional; Luhn-checked by the server too). */
  identity_number?: string | null;
}

export interface CreateContactInput extends ContactInput {
  email: string;
  /** Customer uid: admin and sales person only. */
  customer?: string;
}

export interface ProfileInput {
  first_name: string;
  last_name: string;
  phone?: string | null;
}

export interface UploadUrl {
  url: string;
  key: string;
  content_type: string;
  max_bytes: number;
}
