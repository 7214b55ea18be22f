/**
 * Collaboration calls (spec §7): a case's conversation and its files, the
 * caller's notifications (the two header dropdowns and their pages), ratings
 * and a case's internal notes.
 */
import { api } from './client';
import { putToPresignedUrl } from './users';
import type { CaseNote, Conversation, DropdownKind, MessageView, Notification, NotificationList, Rating } from '../types/collaboration';
import { LIST_PAGE_SIZE } from '../config/constants';

// ── Messages ────────────────────────────────────────────────────────────

export const getConversation = (caseUid: string, before?: string | null) =>
  api.get<Conversation>('/message/', { query: { case: caseUid, before: before ?? undefined } });

interface UploadTarget {
  url: string;
  key: string;
  content_type: string;
  name: string;
}

/**
 * Send a message, with `file` uploaded first when given (the documents flow:
 * a presigned PUT for a key the server chooses; the message post checks it).
 */
export async function sendMessage(caseUid: string, text: string, file?: File | null): Promise<MessageView> {
  let attachment: { attachment_key: string; attachment_name: string } | undefined;
  if (file) {
    const target = await api.post<UploadTarget>('/message/file/upload-url/', { case_uid: caseUid, name: file.name });
    await putToPresignedUrl(target.url, file, target.content_type);
    attachment = { attachment_key: target.key, attachment_name: target.name };
  }
  const m = await api.post<Omit<MessageView, 'read_by_other'>>('/message/', { case_uid: caseUid, text, ...attachment });
  return { ...m, read_by_other: false };
}

export const messageFileUrl = (caseUid: string, key: string, name: string) =>
  api.get<{ url: string; name: string }>('/message/file/download/', { query: { case: caseUid, key, name } });

// ── Notifications ───────────────────────────────────────────────────────

/** The `description` filter of each dropdown (spec §7). */
export const DESCRIPTION: Record<DropdownKind, string> = { messages: 'message', notifications: 'case,others' };

export const listNotifications = (kind: DropdownKind, offset = 0, limit = LIST_PAGE_SIZE) =>
  api.get<NotificationList>('/notification/', { query: { offset, limit, ordering: '-timestamp', description: DESCRIPTION[kind] } });

/** The badge: unseen items of a dropdown. Polled: failures stay quiet. */
export const unseenCount = (kind: DropdownKind) =>
  api.get<{ count: number }>('/notification/seen/count/', { query: { description: DESCRIPTION[kind] }, suppressError: true });

/** The dropdown was opened: its badge goes to 0. */
export const markSeen = (kind: DropdownKind) =>
  api.post<null>('/notification/seen/update/', undefined, { query: { description: DESCRIPTION[kind] } });

export const markRead = (id: string) => api.patch<Notification>(`/notification/${encodeURIComponent(id)}/`, { unread: false });

export const readAll = () => api.post<null>('/notification/read-all/');

// ── Ratings ─────────────────────────────────────────────────────────────

/** A lawyer's ratings, newest first (a lawyer: their own; admin names the lawyer). */
export const lawyerRatings = (lawyer?: string) => api.get<Rating[]>('/rating/', { query: { lawyer } });

export const caseRating = (caseUid: string) => api.get<Rating | null>('/rating/case/', { query: { case: caseUid } });

/** 400s are shown on the form by the caller. */
export const rateCase = (caseUid: string, stars: number, comment: string) =>
  api.post<Rating>('/rating/create/', { case_uid: caseUid, stars, comment }, { suppressError: [400] });

// ── Internal notes ──────────────────────────────────────────────────────

export const caseNotes = (caseUid: string) => api.get<CaseNote[]>('/case/lawyer/note/', { query: { case: caseUid } });

/** 400s are shown on the form by the caller. */
export const addCaseNote = (caseUid: string, note: string) =>
  api.post<CaseNote>('/case/lawyer/note/', { case_uid: caseUid, note }, { suppressError: [400] });
