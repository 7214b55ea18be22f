/**
 * How a notification shows (spec §2 dropdowns and pages, §4 notification
 * states, §7): its icon, its text translated from the verb key with the
 * stored values, its time relative to now in the reader's language, and
 * where a click leads (case or message → the role's case details, a message
 * at the conversation; other → the role's notifications page).
 */
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  EditOutlined,
  EyeOutlined,
  FileAddOutlined,
  LockOutlined,
  MessageOutlined,
  NotificationOutlined,
  PlusCircleOutlined,
  RollbackOutlined,
  ShoppingCartOutlined,
  StarOutlined,
  StopOutlined,
  SwapOutlined,
  UnlockOutlined,
  UserAddOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import dayjs from '../../i18n/dates';
import relativeTime from 'dayjs/plugin/relativeTime';
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import type { Role } from '../../auth/roles';
import { hasRoute, pathFor } from '../../routes/pathFor';
import type { Notification, NotificationParams, Verb } from '../../types/collaboration';

dayjs.extend(relativeTime);

/** Every verb the server stores (shared::domain::notification::Verb); a test compares the two. */
export const VERBS: readonly Verb[] = [
  'case_created',
  'case_published',
  'case_accepted',
  'case_closed',
  'case_reopened',
  'case_transferred',
  'hours_logged',
  'hours_edited',
  'message_received',
  'document_added',
  'subscription_bought',
  'subscription_changed',
  'subscription_activated',
  'subscription_expiring',
  'subscription_expired',
  'customer_awaiting_approval',
  'case_rated',
  'meeting_booked',
  'meeting_cancelled',
  'case_followed',
];

export const VERB_ICONS: Record<Verb, ReactNode> = {
  case_created: <PlusCircleOutlined />,
  case_published: <NotificationOutlined />,
  case_accepted: <CheckCircleOutlined />,
  case_closed: <LockOutlined />,
  case_reopened: <UnlockOutlined />,
  case_transferred: <RollbackOutlined />,
  meeting_booked: <ClockCircleOutlined />,
  meeting_cancelled: <StopOutlined />,
  hours_logged: <ClockCircleOutlined />,
  hours_edited: <EditOutlined />,
  message_received: <MessageOutlined />,
  document_added: <FileAddOutlined />,
  subscription_bought: <ShoppingCartOutlined />,
  subscription_changed: <SwapOutlined />,
  subscription_activated: <CheckCircleOutlined />,
  subscription_expiring: <WarningOutlined />,
  subscription_expired: <StopOutlined />,
  customer_awaiting_approval: <UserAddOutlined />,
  case_rated: <StarOutlined />,
  case_followed: <EyeOutlined />,
};

/** The params a text may name (shared::domain::notification::Params). */
export const PARAM_NAMES: readonly (keyof NotificationParams)[] = ['case_number', 'subject', 'actor', 'service', 'date', 'customer', 'excerpt'];

/**
 * The notification's text (`notifications:verbs.<verb>`) and its second line:
 * a message's first words, else the case's subject. Unknown verbs (a newer
 * server) show a neutral text.
 */
export function notificationLines(t: TFunction, n: Notification): { text: string; detail: string | null } {
  const values: Record<string, string> = {};
  for (const p of PARAM_NAMES) values[p] = n.params?.[p] ?? '';
  if (!values.actor) values.actor = t('someone', { ns: 'notifications' });
  const key = `verbs.${n.verb}`;
  const text = t(key, { ns: 'notifications', ...values, defaultValue: t('unknownVerb', { ns: 'notifications' }) });
  const detail = n.params?.excerpt || n.params?.subject || null;
  return { text, detail };
}

/** "3 minutes ago" / "för 3 minuter sedan" in `lang`. */
export function relativeTimeOf(timestamp: string, lang: string): string {
  return dayjs(timestamp).locale(lang.startsWith('en') ? 'en' : 'sv').fromNow();
}

/**
 * Where a click on `n` leads for `role`: a case or message notification to
 * the case details (a message at its conversation); others to the role's
 * notifications page (null: the role has none, stay).
 */
export function notificationTarget(role: Role, n: Notification): string | null {
  if ((n.description === 'case' || n.description === 'message') && n.uid) {
    const details = pathFor(role, 'caseDetails', { id: n.uid });
    return n.description === 'message' ? `${details}#conversation` : details;
  }
  return hasRoute(role, 'notifications') ? pathFor(role, 'notifications') : null;
}
