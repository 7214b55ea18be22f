/** Staff-kept customer DTOs of the API (spec §3 Customer). */

import type { components } from './api.gen';

type Schemas = components['schemas'];


export type InvoiceBy = Schemas['InvoiceBy'];

export type CustomerListStatus = 'all' | 'active' | 'inactive' | 'pending';

export type CustomerForm = Schemas['CustomerForm'];

export type CustomerProfile = Schemas['CustomerProfile'];

/** The spec §3 Customer object of `customer/details/{uid}/`. */
export type CustomerDetails = Schemas['CustomerDetails'];

export interface AccountManager {
  uid: string;
  first_name: string;
  last_name: string;
  email: string;
}

export type { NamedEntry } from './named';

export type CompanySize = Schemas['CompanySize'];

export type DropdownOption = Schemas['DropdownOption'];
