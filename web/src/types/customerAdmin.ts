/** Staff-kept customer DTOs of the API (spec §3 Customer). */

import type { Address, BusinessSector, CustomerRow, CustomerType } from './customers';

export type InvoiceBy = 'post' | 'email';

export type CustomerListStatus = 'all' | 'active' | 'inactive' | 'pending';

export interface CustomerForm {
  customer_type: CustomerType;
  first_name: string;
  last_name: string;
  email: string;
  company_name?: string;
  company_registration_number?: string;
  /** Business sector id (companies). */
  sector?: string;
  phone: string;
  profile: Address;
  same_invoice_address: boolean;
  invoice_address?: Address;
  /** Sales person uid. */
  account_manager?: string | null;
  invoice_by?: InvoiceBy | null;
  department?: number | null;
  /** SEK per hour. */
  hourly_rate?: number | null;
  knowledge_sectors?: number[];
  company_size?: string | null;
}

export interface CustomerProfile extends CustomerRow {
  profile: Address;
  same_invoice_address: boolean;
  invoice_address: Address;
  account_manager_uid: string | null;
  invoice_by: InvoiceBy | null;
  department_id: number | null;
  hourly_rate_ore: number | null;
  knowledge_sectors: number[];
  company_size: string | null;
}

/** The spec §3 Customer object of `customer/details/{uid}/`. */
export interface CustomerDetails extends CustomerProfile {
  image: string;
  active: boolean;
  account_manager: { uid: string; first_name: string; last_name: string } | null;
  department: { id: number; name: string } | null;
  knowledge_sector_names: string[];
  sector: BusinessSector | null;
}

export interface AccountManager {
  uid: string;
  first_name: string;
  last_name: string;
  email: string;
}

export type { NamedEntry } from './named';

export interface CompanySize {
  value: string;
  label: string;
}

export interface DropdownOption {
  uid: string;
  label: string;
  email: string;
  company_name: string | null;
}
