/**
 * The content function: terms and privacy (`public/`, read by anyone), the
 * customer's acceptance of a new version, public documents and templates,
 * the customer's documents across its cases, support tickets and Freja Academy.
 */
import { api } from './client';
import { putToPresignedUrl } from './users';
import type {
  Acceptance,
  Answer,
  CustomerDocument,
  LegalKind,
  LegalText,
  LegalVersion,
  Lesson,
  LessonForm,
  Progress,
  TemplateFile,
  Ticket,
  TicketCounts,
  TicketDetails,
  TicketList,
  Topic,
} from '../types/content';

interface UploadTarget {
  url: string;
  key: string;
  content_type: string;
  name: string;
}

const quiet = { suppressError: [400] };

/** GET /api/public/terms/ or /api/public/privacy/ — anyone; null before a version is published. */
export const fetchLegalText = (kind: LegalKind) =>
  api.get<LegalText | null>(`/public/${kind}/`, { anonymous: true, suppressError: [404] });

export const fetchPendingTexts = () => api.get<LegalText[]>('/legal/pending/', { suppressError: true });
export const acceptText = (kind: LegalKind, version: number) => api.post<Acceptance>('/legal/accept/', { kind, version }, quiet);
/** Admin: every version of a text, newest first, without the texts (the current text is fetchLegalText's). */
export const fetchLegalVersions = (kind: LegalKind) => api.get<LegalVersion[]>('/legal/versions/', { query: { kind } });
export const publishLegalText = (kind: LegalKind, sv: string, en: string) =>
  api.post<LegalVersion>('/legal/publish/', { kind, sv, en }, quiet);

export const fetchTemplates = () => api.get<TemplateFile[]>('/template_file/list/');
export const templateDownloadUrl = (id: string) => api.get<{ url: string; name: string }>('/template_file/download/', { query: { id } });
export const deleteTemplate = (id: string) => api.del(`/template_file/${encodeURIComponent(id)}/`);
export async function uploadTemplate(file: File, title: string, category: string, language: string): Promise<TemplateFile> {
  const target = await api.post<UploadTarget>('/template_file/upload-url/', { name: file.name }, quiet);
  await putToPresignedUrl(target.url, file, target.content_type);
  return api.post<TemplateFile>('/template_file/', { key: target.key, name: target.name, title, category, language }, quiet);
}

export const fetchCustomerDocuments = (query: { search?: string; case?: string; kind?: string }) =>
  api.get<CustomerDocument[]>('/documents/', { query: Object.fromEntries(Object.entries(query).filter(([, v]) => v)) as Record<string, string> });

export const fetchTickets = (status?: string, cursor?: string) =>
  api.get<TicketList>('/support/', { query: { ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } });
export const fetchTicket = (id: number) => api.get<TicketDetails>(`/support/${id}/`);
export const fetchTicketCounts = () => api.get<TicketCounts>('/support/counts/');
export const answerTicket = (id: number, text: string) => api.post<Answer>(`/support/${id}/answer/`, { text }, quiet);
export const closeTicket = (id: number) => api.post<Ticket>(`/support/${id}/close/`);
export const ticketFileUrl = (id: number) => api.get<{ url: string; name: string }>(`/support/${id}/file/`);
export async function createTicket(input: { subject: string; message: string; case_uid?: string; file?: File | null }): Promise<Ticket> {
  let attachment: { attachment_key?: string; attachment_name?: string } = {};
  if (input.file) {
    const target = await api.post<UploadTarget>('/support/file/upload-url/', { name: input.file.name }, quiet);
    await putToPresignedUrl(target.url, input.file, target.content_type);
    attachment = { attachment_key: target.key, attachment_name: target.name };
  }
  return api.post<Ticket>('/support/', { subject: input.subject, message: input.message, case_uid: input.case_uid || null, ...attachment }, quiet);
}

export const fetchAcademy = () => api.get<Topic[]>('/academy/');
export const setProgress = (id: string, p: { watched?: boolean; completed?: boolean }) =>
  api.post<Progress>(`/academy/${encodeURIComponent(id)}/progress/`, p);
export const createLesson = (f: LessonForm) => api.post<Lesson>('/academy/lessons/', f, quiet);
export const updateLesson = (id: string, f: LessonForm) => api.put<Lesson>(`/academy/lessons/${encodeURIComponent(id)}/`, f, quiet);
export const deleteLesson = (id: string) => api.del(`/academy/lessons/${encodeURIComponent(id)}/`);
export const orderLessons = (ids: string[]) => api.post<Lesson[]>('/academy/lessons/order/', { ids });
export async function uploadLessonVideo(id: string, file: File): Promise<Lesson> {
  const target = await api.post<UploadTarget>(`/academy/lessons/${encodeURIComponent(id)}/video/upload-url/`, {});
  await putToPresignedUrl(target.url, file, target.content_type);
  return api.post<Lesson>(`/academy/lessons/${encodeURIComponent(id)}/video/confirm/`, { key: target.key }, quiet);
}
