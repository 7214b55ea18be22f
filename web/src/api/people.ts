import { api } from './client';

export type StaffRole = 'lawyer' | 'sales_person';
export type LawyerKind = 'internal' | 'external';

export interface LawyerDetails {
  user_sub_type: LawyerKind;
  company_name: string | null;
  /** SEK per hour in öre. */
  hourly_rate_ore: number | null;
  knowledge_sectors: number[];
  company_affiliation: string | null;
  description: string;
  video_care_url: string | null;
}

export interface StaffProfile {
  uid: string;
  role: StaffRole;
  first_name: string;
  last_name: string;
  email: string;
  active: boolean;
  created_at: string;
  lawyer: LawyerDetails | null;
}

export interface StaffInput {
  first_name: string;
  last_name: string;
  email: string;
  user_sub_type?: LawyerKind;
  company_name?: string | null;
  hourly_rate?: number | null;
  knowledge_sectors?: number[];
  company_affiliation?: string | null;
  description?: string | null;
  video_care_url?: string | null;
}

/** A page of a key-paged list: pass `next` back as `cursor`. */
export interface Page<T> {
  results: T[];
  next: string | null;
}

const base = (role: StaffRole) => (role === 'lawyer' ? '/lawyer' : '/salesperson');

export function listStaff(role: StaffRole, opts: { kind?: LawyerKind; cursor?: string | null } = {}): Promise<Page<StaffProfile>> {
  return api.get<Page<StaffProfile>>(`${base(role)}/list/`, { query: { type: opts.kind, cursor: opts.cursor ?? undefined } });
}

export function getStaff(role: StaffRole, uid: string): Promise<StaffProfile> {
  return api.get<StaffProfile>(`${base(role)}/${encodeURIComponent(uid)}/`);
}

/** 400s are shown on the form by the caller. */
export function createStaff(role: StaffRole, input: StaffInput): Promise<StaffProfile> {
  return api.post<StaffProfile>(`${base(role)}/create/`, input, { suppressError: [400] });
}

export function updateStaff(role: StaffRole, uid: string, input: StaffInput): Promise<StaffProfile> {
  return api.put<StaffProfile>(`${base(role)}/update/${encodeURIComponent(uid)}/`, input, { suppressError: [400] });
}

export interface NamedEntry {
  id: number;
  name: string;
}

/** GET knowledge/sector/list/ — the lawyer form's sectors. */
export function listKnowledgeSectors(): Promise<NamedEntry[]> {
  return api.get<NamedEntry[]>('/knowledge/sector/list/');
}

/** POST staff/send-password-link/{uid}/ — a new set-password link (admin). */
export function sendStaffPasswordLink(uid: string): Promise<{ message: string }> {
  return api.post<{ message: string }>(`/staff/send-password-link/${encodeURIComponent(uid)}/`, {});
}
