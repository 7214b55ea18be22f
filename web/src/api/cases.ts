/** Case calls (spec §7 case/...). Shapes follow the API's OpenAPI document. */
import { api } from './client';
import type { Page } from '../types/paging';
import type { NamedEntry } from '../types/named';
import type {
  CaseAction,
  Case,
  CaseDetails,
  CaseHour,
  HistoryEntry,
  CasePayload,
  HourPayload,
  CreateVia,
  CaseName,
  Follower,
  Followers,
} from '../types/cases';

const CREATE_PATH: Record<CreateVia, string> = {
  staff: '/case/create/',
  customer: '/case/create/by/customer/',
  lawyer: '/case/create/by/lawyer/',
};

/** A case list: `status` is the API's list word per role (pages/cases/caseRules.ts CASE_TABS); newest first unless `order: 'asc'`. */
export const listCases = (q: { status: string; search?: string; order?: 'asc' | 'desc' }, cursor: string | null) =>
  api.get<Page<Case>>('/case/list/', {
    query: { status: q.status, search: q.search || undefined, order: q.order === 'asc' ? 'asc' : undefined, cursor: cursor ?? undefined },
  });
export const getCase = (uid: string) => api.get<CaseDetails>(`/case/${encodeURIComponent(uid)}/`);
export const createCase = (via: CreateVia, body: CasePayload) => api.post<Case>(CREATE_PATH[via], body);
export const updateCase = (uid: string, body: CasePayload) => api.put<Case>(`/case/update/${encodeURIComponent(uid)}/`, body);
export const changeCaseStatus = (uid: string, action: CaseAction) =>
  api.post<Case>(`/case/status/${encodeURIComponent(uid)}/`, { action });
export const caseName = (uid: string) => api.get<CaseName>(`/case/name/${encodeURIComponent(uid)}/`);
export const caseHistory = (uid: string) => api.get<HistoryEntry[]>(`/case/history/${encodeURIComponent(uid)}/`);
/** A case's followers and what the caller may do with them. Quiet: a card that cannot load is not shown, and a case the caller no longer sees answers 404. */
export const caseFollowers = (uid: string) => api.get<Followers>(`/case/followers/${encodeURIComponent(uid)}/`, { suppressError: true });
export const addFollower = (uid: string, user: string) => api.post<Follower>(`/case/followers/${encodeURIComponent(uid)}/`, { user });
export const removeFollower = (uid: string, user: string) =>
  api.del(`/case/followers/${encodeURIComponent(uid)}/${encodeURIComponent(user)}/`);
export const caseHours = (uid: string) => api.get<CaseHour[]>('/case/hour/list/', { query: { case: uid } });
/** The case's hours as an .xlsx, column titles in `lang`. */
export const hoursWorkbook = (uid: string, lang: string) => api.blob('/case/hour/excel/', { query: { case: uid, lang } });
export const createHour = (body: HourPayload) => api.post<CaseHour>('/case/hour/create/', body);
export const deleteHour = (caseUid: string, id: string) =>
  api.del(`/case/hour/delete/${encodeURIComponent(id)}/`, { query: { case: caseUid } });
export const caseCustomers = (search: string) =>
  api.get<{ uid: string; name: string }[]>('/case/customer/list/', { query: { search } });
/** The address a new case starts with: the customer's visiting address (the customer side: its own). A convenience: failures stay quiet. */
export const defaultCaseAddress = (customer?: string) =>
  api.get<{ address_1: string; city: string; post_code: string; country: string }>('/case/address/default/', {
    query: { customer: customer || undefined },
    suppressError: true,
  });
export const caseTypes = () => api.get<NamedEntry[]>('/typeofcase/list/');
