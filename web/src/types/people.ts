/** Lawyer and sales-person DTOs of the API (spec §3). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type StaffRole = 'lawyer' | 'sales_person';

export type LawyerKind = 'internal' | 'external';

export type LawyerDetails = Schemas['LawyerDetails'];

export type StaffProfile = Schemas['StaffProfile'];

export type StaffInput = Schemas['StaffInput'];

export type { NamedEntry } from './named';
