/** The audit trail's DTOs (`audit/`, `audit/mine/`). */

/** What happened (the server's `AuditAction`). */
export type AuditAction =
  | 'case_viewed'
  | 'document_downloaded'
  | 'document_uploaded'
  | 'messages_read'
  | 'export_made'
  | 'customer_viewed'
  | 'customer_changed'
  | 'subscription_changed'
  | 'permissions_changed'
  | 'signed_in'
  | 'sign_in_failed'
  | 'conflict_search';

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
];

/** The roles an event's actor can have (the server's role words). */
export type AuditRole = 'admin' | 'lawyer' | 'sales_person' | 'customer' | 'customer_contact';

export interface AuditEvent {
  id: string;
  /** RFC 3339, UTC. */
  at: string;
  action: AuditAction;
  /** Empty for a failed sign-in to an unknown address. */
  actor_uid: string;
  actor_name: string;
  actor_role: AuditRole | null;
  customer_uid: string | null;
  /** A case uid, a document's name, an export's name. */
  subject: string | null;
  detail: string | null;
  /** A conflict search's number of possible conflicts (its query is the subject). */
  hits?: number;
  /** A conflict search's best hits' names, as the searcher saw them. */
  names?: string[];
}

/** A page of the trail; the admin's names the customers its events concern (uid → name). */
export interface AuditPage {
  results: AuditEvent[];
  next: string | null;
  customers?: Record<string, string>;
}

/** The admin's filters: all optional; dates `YYYY-MM-DD` (UTC days, inclusive). */
export interface AuditFilter {
  customer?: string;
  user?: string;
  /** One kind of event only. */
  action?: AuditAction;
  from?: string;
  to?: string;
}
