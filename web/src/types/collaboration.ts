/**
 * Collaboration DTOs of the API (spec §3 notification; functions/collaboration):
 * messages in a case, the caller's notifications, ratings, internal notes.
 */

/** What happened (shared::domain::notification::Verb, stored as a key; texts in `notifications:verbs.<key>`). */
export type Verb =
  | 'case_created'
  | 'case_published'
  | 'case_accepted'
  | 'case_closed'
  | 'case_reopened'
  | 'case_transferred'
  | 'hours_logged'
  | 'hours_edited'
  | 'message_received'
  | 'document_added'
  | 'subscription_bought'
  | 'subscription_changed'
  | 'subscription_activated'
  | 'subscription_expiring'
  | 'subscription_expired'
  | 'customer_awaiting_approval'
  | 'case_rated'
  | 'meeting_booked'
  | 'meeting_cancelled';

/** Spec §3 `description`. */
export type NotificationCategory = 'case' | 'message' | 'others';

/** The values a verb's text names (all optional). */
export interface NotificationParams {
  case_number?: string;
  subject?: string;
  actor?: string;
  service?: string;
  date?: string;
  customer?: string;
  excerpt?: string;
}

export interface Notification {
  id: string;
  verb: Verb;
  params: NotificationParams;
  timestamp: string;
  unread: boolean;
  description: NotificationCategory;
  /** The case concerned (case and message notifications). */
  uid: string | null;
}

export interface NotificationList {
  results: Notification[];
  more: boolean;
}

/** The `description` filter of a dropdown (spec §7). */
export type DropdownKind = 'messages' | 'notifications';

export interface Attachment {
  key: string;
  name: string;
  size: number;
}

export interface MessageView {
  id: string;
  case_uid: string;
  by: string;
  by_name: string;
  side: 'lawyer' | 'customer';
  text: string;
  attachment: Attachment | null;
  at: string;
  /** Whether the other side has read it. */
  read_by_other: boolean;
}

export interface Conversation {
  /** Oldest first within the page. */
  messages: MessageView[];
  /** Cursor for the page before this one; null at the start. */
  older: string | null;
  can_write: boolean;
  /** A server message key when the caller may not write. */
  cannot_write_because: string | null;
}

export interface Rating {
  case_uid: string;
  case_number: string;
  subject: string;
  lawyer: string;
  lawyer_name: string;
  customer: string;
  customer_name: string;
  stars: number;
  comment: string;
  at: string;
}

export interface CaseNote {
  by: string;
  by_name: string;
  note: string;
  at: string;
}
