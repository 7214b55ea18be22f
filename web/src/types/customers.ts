/** Customer account DTOs of the API (spec §3 Customer, entity counts). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type CustomerType = Schemas['CustomerType'];

export type CustomerState = Schemas['CustomerState'];

export type Address = Schemas['Address'];

export interface RegistrationInput {
  customer_type: CustomerType;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  confirm_password: string;
  company_name: string;
  company_registration_number: string;
  /** Business sector id (companies). */
  sector: string;
  phone: string;
  profile: Address;
  same_invoice_address: boolean;
  invoice_address: Address;
  terms_accepted: boolean;
  privacy_accepted: boolean;
  /** The versions of the terms and privacy policy the form showed (recorded with the time). */
  terms_version?: number;
  privacy_version?: number;
}

export type BusinessSector = Schemas['BusinessSector'];

export interface CustomerRow {
  uid: string;
  customer_type: CustomerType;
  company_name: string | null;
  company_registration_number: string | null;
  sector: BusinessSector | null;
  phone: string;
  state: CustomerState;
  approved_at: string | null;
  activated_at: string | null;
  email: string;
  first_name: string;
  last_name: string;
  created_at: string;
}

export interface CustomerPage {
  results: CustomerRow[];
  next: string | null;
}

export type Bubbles = Schemas['Bubbles'];
