/** Customer contacts, permissions and the profile page (functions/users). */
import type { Auth, SessionUser } from '../types/session';
import { api, authorizationHeader } from './client';
import type { Contact, ContactList, ContactInput, CreateContactInput, ProfileInput, UploadUrl } from '../types/users';

/** GET /api/permission/ — the signed-in user's permission codes. `auth` right after login. */
export async function fetchPermissions(opts: { auth?: Auth; suppressError?: boolean } = {}): Promise<string[]> {
  const header = opts.auth ? authorizationHeader(opts.auth) : null;
  const res = await api.get<{ permissions: string[] }>('/permission/', {
    suppressError: opts.suppressError,
    headers: header ? { Authorization: header } : undefined,
  });
  return Array.isArray(res?.permissions) ? res.permissions : [];
}

/** GET /api/user/list/ — 10 newest first; `customer` for admin and sales person. */
export function listContacts(opts: { customer?: string; cursor?: string | null } = {}): Promise<ContactList> {
  return api.get<ContactList>('/user/list/', { query: { customer: opts.customer || undefined, cursor: opts.cursor || undefined } });
}

/** POST /api/customers/user/create/ — 400 field errors are shown on the form. */
export function createContact(input: CreateContactInput): Promise<Contact> {
  return api.post<Contact>('/customers/user/create/', input, { suppressError: [400] });
}

export function fetchContact(contactId: string): Promise<Contact> {
  return api.get<Contact>(`/customers/user/${encodeURIComponent(contactId)}/`);
}

export function updateContact(contactId: string, input: ContactInput): Promise<Contact> {
  return api.put<Contact>(`/customers/user/update/${encodeURIComponent(contactId)}/`, input, { suppressError: [400] });
}

export function setContactActive(contactId: string, active: boolean): Promise<Contact> {
  const action = active ? 'activate' : 'deactivate';
  return api.post<Contact>(`/customers/user/${action}/${encodeURIComponent(contactId)}/`, {});
}

/** POST /api/customers/user/send-password-link/{id}/ — mail the contact a new set-password link. */
export function sendContactPasswordLink(contactId: string): Promise<{ message: string }> {
  return api.post<{ message: string }>(`/customers/user/send-password-link/${encodeURIComponent(contactId)}/`, {});
}

/** Mail when something happens (profile page): on unless turned off, in the chosen language. */
export interface MailSettings {
  on: boolean;
  language: 'sv' | 'en';
}

/** GET /api/profile/mail/ — the signed-in user's mail setting. */
export function getMailSettings(): Promise<MailSettings> {
  return api.get<MailSettings>('/profile/mail/');
}

/** PUT /api/profile/mail/ — saves it. */
export function saveMailSettings(settings: MailSettings): Promise<MailSettings> {
  return api.put<MailSettings>('/profile/mail/', settings, { suppressError: [400] });
}

/** POST /api/profile/mail/unsubscribe/ — a mail's unsubscribe link (no sign-in): turns the setting off. */
export function unsubscribeMail(token: string): Promise<MailSettings> {
  return api.post<MailSettings>('/profile/mail/unsubscribe/', { token }, { anonymous: true, suppressError: true });
}

/** PUT /api/profile/update/ — the session user. */
export function updateProfile(input: ProfileInput): Promise<SessionUser> {
  return api.put<SessionUser>('/profile/update/', input, { suppressError: [400] });
}

export function profileImageUploadUrl(contentType: string): Promise<UploadUrl> {
  return api.post<UploadUrl>('/profile/image/upload-url/', { content_type: contentType }, { suppressError: [400] });
}

/** POST /api/profile/image/confirm/ — the session user with the new image URL. */
export function confirmProfileImage(key: string): Promise<SessionUser> {
  return api.post<SessionUser>('/profile/image/confirm/', { key }, { suppressError: [400] });
}

/** PUT the file straight to S3 with the presigned URL (exact Content-Type, no Authorization). */
export async function putToPresignedUrl(url: string, file: Blob, contentType: string): Promise<void> {
  const res = await fetch(url, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
  if (!res.ok) throw new Error(`upload failed: ${res.status}`);
}
