import { api } from './client';
import type { Page } from '../types/paging';
import type { StaffRole, LawyerKind, StaffProfile, StaffInput, NamedEntry } from '../types/people';

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

/** GET knowledge/sector/list/ — the lawyer form's sectors. */
export function listKnowledgeSectors(): Promise<NamedEntry[]> {
  return api.get<NamedEntry[]>('/knowledge/sector/list/');
}

/** POST staff/send-password-link/{uid}/ — a new set-password link (admin). */
export function sendStaffPasswordLink(uid: string): Promise<{ message: string }> {
  return api.post<{ message: string }>(`/staff/send-password-link/${encodeURIComponent(uid)}/`, {});
}
