/** Catalogue and subscription DTOs of the API (spec §3 purchased service, package, service plan). */

export type SubscriptionStatus = 'Expired' | 'Deactivated' | 'Active' | 'Inactive' | 'Consumed';

export interface NamedRef {
  id: number | null;
  name: string;
}

/** Spec §3 purchased service row; `status` is computed by the server (spec §4). */
export interface PurchasedService {
  id: number;
  customer_uid: string;
  package_id: number | null;
  service: { id: number; name: string };
  service_plan: NamedRef | null;
  packages: NamedRef | null;
  limit: number | null;
  consumed_limit: number;
  hour: number;
  consumed_hour: number;
  hour_less_than_consumed: boolean;
  advance: boolean;
  active: boolean;
  expired: boolean;
  start_date: string;
  expire_on: string;
  auto_update_date_end: string | null;
  child: number | null;
  updated_at: string;
  created_at: string;
  status: SubscriptionStatus;
}

export interface CustomerServices {
  purchased_services: PurchasedService[];
  bisnode_account_active: boolean;
  bisnode_account: string | null;
}

export interface Package {
  id: number;
  name: string;
  hours: number;
  price: number;
  duration_days: number;
  public: boolean;
  /** No longer sold (to anyone); rows bought earlier keep it. */
  retired?: boolean;
  /** Bought at least once: never deleted, only retired. */
  bought?: boolean;
}

export interface ServicePlan {
  id: number;
  name: string;
  service_id: number;
  limit: number | null;
  hours: number | null;
  price: number;
  expiry_days: number;
  public: boolean;
  retired?: boolean;
  bought?: boolean;
}

export interface Service {
  id: number;
  name: string;
  hour_based: boolean;
}

export type { NamedEntry } from './named';

export interface Message {
  message: string;
}

/** The admin-kept named lists. */
export type NamedListKind = 'knowledge' | 'caseTypes' | 'departments';
