/** Customer-contact and profile DTOs of the API (spec §3 permissions). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

/** Customer-contact permission codes (spec §3). */
export type Permission = Schemas['Permission'];

export type Contact = Schemas['Contact'];

export type ContactList = Schemas['ContactList'];

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

export type UploadUrl = Schemas['UploadUrl'];
