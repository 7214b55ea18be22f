/**
 * Collaboration DTOs of the API (spec §3 notification; functions/collaboration):
 * messages in a case, the caller's notifications, ratings, internal notes.
 */

import type { components } from './api.gen';

type Schemas = components['schemas'];

/** What happened (shared::domain::notification::Verb, stored as a key; texts in `notifications:verbs.<key>`). */
export type Verb = Schemas['Verb'];

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

export type Notification = Schemas['Notification'];

export type NotificationList = Schemas['NotificationList'];

/** The `description` filter of a dropdown (spec §7). */
export type DropdownKind = 'messages' | 'notifications';

export type Attachment = Schemas['Attachment'];

export type MessageView = Schemas['MessageView'];

export type Conversation = Schemas['Conversation'];

export type Rating = Schemas['Rating'];

export interface CaseNote {
  by: string;
  by_name: string;
  note: string;
  at: string;
}
