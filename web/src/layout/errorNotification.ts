/**
 * The spec §8 warning notification for failed API calls: HTTP status → title
 * and description lines (translated), shown on antd's notification API. The
 * router root registers it on the API client at start-up
 * (`registerErrorNotification`), so the client knows nothing of the UI.
 */
import { createElement, type ReactNode } from 'react';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { onApiError } from '../api/client';
import { flattenMessages, type ApiErrorBody } from '../api/errors';
import i18n, { translateServerMessage } from '../i18n';

export interface ErrorNotice {
  /** errors:<titleKey> */
  titleKey: string;
  title: string;
  /** One or more translated description lines (400 lists every message). */
  lines: string[];
}

/** Keys of a 400 body that are not themselves messages. */
const NON_MESSAGE_KEYS = new Set(['status', 'errors', 'message']);

/**
 * Spec §8, 400: every server message (the message field, or nested/array
 * values), each translated; per-field lists shown one line per message,
 * prefixed with the field name.
 */
export function collectMessages(body: unknown): string[] {
  if (body == null) return [];
  if (typeof body === 'string') return body.trim() ? [translateServerMessage(body)] : [];
  if (Array.isArray(body)) return flattenMessages(body).map(translateServerMessage);
  if (typeof body !== 'object') return [String(body)];
  const b = body as ApiErrorBody;
  const lines: string[] = [];
  if (typeof b.message === 'string' && b.message.trim()) lines.push(translateServerMessage(b.message));
  const fieldErrors = b.errors && typeof b.errors === 'object' ? b.errors : {};
  for (const [field, value] of Object.entries(fieldErrors)) {
    for (const msg of flattenMessages(value)) {
      const text = translateServerMessage(msg);
      lines.push(field === 'non_field_errors' || field === 'detail' ? text : `${field}: ${text}`);
    }
  }
  // Other (legacy) shapes: {"field": ["msg"]} at top level.
  for (const [field, value] of Object.entries(b)) {
    if (NON_MESSAGE_KEYS.has(field)) continue;
    for (const msg of flattenMessages(value)) lines.push(`${field}: ${translateServerMessage(msg)}`);
  }
  return lines;
}

/**
 * Map an HTTP status (0 = network failure) and error body to the warning
 * notification of spec §8. 401 has none (the session is cleared instead).
 */
export function describeError(status: number, body: unknown): ErrorNotice | null {
  const t = (key: string) => i18n.t(key, { ns: 'errors' });
  const serverMessage =
    body && typeof body === 'object' && typeof (body as ApiErrorBody).message === 'string'
      ? ((body as ApiErrorBody).message as string)
      : '';
  const notice = (titleKey: string, lines: string[]): ErrorNotice => ({ titleKey, title: t(titleKey), lines });

  switch (status) {
    case 401:
      return null;
    case 400: {
      const lines = collectMessages(body);
      return notice('badRequestTitle', lines.length ? lines : [t('badRequestMessage')]);
    }
    case 403:
      return notice('notAuthorizedTitle', [t('notAuthorizedMessage')]);
    case 404:
      return notice('notFoundTitle', [
        serverMessage && serverMessage !== 'not_found' ? translateServerMessage(serverMessage) : t('notFoundMessage'),
      ]);
    case 406:
      return notice('notFoundTitle', [
        serverMessage && serverMessage !== 'not_found' ? translateServerMessage(serverMessage) : t('userNotFoundMessage'),
      ]);
    case 409:
      // Another request took it first (a case another lawyer just accepted): the server's key says so.
      return notice('errorTitle', [serverMessage ? translateServerMessage(serverMessage) : t('errorMessage')]);
    case 500:
      return notice('systemErrorTitle', [t('systemErrorMessage')]);
    default:
      return notice('errorTitle', [t('errorMessage')]);
  }
}

/** Where warnings are shown: antd's notification API (the router root passes antd's global one, loaded with the first warning: app/Root.tsx). */
export type Notifier = Pick<NotificationInstance, 'warning'>;

function renderLines(lines: string[]): ReactNode {
  if (lines.length === 1) return lines[0];
  return createElement(
    'ul',
    { style: { margin: 0, paddingInlineStart: 18 } },
    lines.map((line, i) => createElement('li', { key: i }, line)),
  );
}

/** Show the spec §8 warning for a failed call on `notifier`. Returns the notice shown (or null). */
export function notifyError(notifier: Notifier, status: number, body: unknown): ErrorNotice | null {
  const notice = describeError(status, body);
  if (!notice) return null;
  notifier.warning({
    title: notice.title,
    description: renderLines(notice.lines),
    props: { 'data-testid': 'error-notification' },
  });
  return notice;
}

/** Start-up: every failed call the client does not suppress is shown on `notifier`. */
export function registerErrorNotification(notifier: Notifier): void {
  onApiError((status, body) => void notifyError(notifier, status, body));
}
