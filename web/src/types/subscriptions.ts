/** Catalogue and subscription DTOs of the API (spec §3 purchased service, package, service plan). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type SubscriptionStatus = Schemas['Status'];

export type NamedRef = Schemas['NamedRef'];

/** Spec §3 purchased service row; `status` is computed by the server (spec §4). */
export type PurchasedService = Schemas['RowView'];

export type CustomerServices = Schemas['CustomerServices'];

export type Package = Schemas['Package'];

export type ServicePlan = Schemas['ServicePlan'];

export type Service = Schemas['Service'];

export type { NamedEntry } from './named';

export type Message = Schemas['Message'];

/** The admin-kept named lists. */
export type NamedListKind = 'knowledge' | 'caseTypes' | 'departments';
