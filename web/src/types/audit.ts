/** The audit trail's DTOs (`audit/`, `audit/mine/`). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

/** What happened (the server's `AuditAction`). */
export type AuditAction = Schemas['AuditAction'];

export const AUDIT_ACTIONS: readonly AuditAction[] = [
  'case_viewed',
  'document_downloaded',
  'document_uploaded',
  'messages_read',
  'export_made',
  'customer_viewed',
  'customer_changed',
  'subscription_changed',
  'permissions_changed',
  'signed_in',
  'sign_in_failed',
  'conflict_search',
  'records_erased',
  'retention_run',
];

/** The roles an event's actor can have (the server's role words). */
export type AuditRole = 'admin' | 'lawyer' | 'sales_person' | 'customer' | 'customer_contact';

export type AuditEvent = Schemas['AuditEvent'];

/** A page of the trail; the admin's names the customers its events concern (uid → name). */
export type AuditPage = Schemas['AuditPage'];

/** The admin's filters: all optional; dates `YYYY-MM-DD` (UTC days, inclusive). */
export interface AuditFilter {
  customer?: string;
  user?: string;
  /** One kind of event only. */
  action?: AuditAction;
  from?: string;
  to?: string;
}
