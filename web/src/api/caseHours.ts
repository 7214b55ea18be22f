/** Case hours beyond create/list/delete (in cases.ts) and additional hours (spec §7 case/hour/, case/additional_hour/). */
import { api } from './client';
import type { CaseHour, HistoryEntry, HourPayload } from '../types/cases';
import type { AdditionalHour, AdditionalHourPayload, MassUpdatePayload } from '../types/caseHours';

/** Forms show 400s inline, translated; other statuses go to the §8 notification. */
const inline = { suppressError: [400] };
const q = (caseUid: string) => ({ query: { case: caseUid } });
const id = (v: string) => encodeURIComponent(v);

export const getHour = (caseUid: string, hourId: string) => api.get<CaseHour>(`/case/hour/${id(hourId)}/`, q(caseUid));
export const editHour = (hourId: string, body: HourPayload) => api.put<CaseHour>(`/case/hour/edit/${id(hourId)}/`, body, inline);
export const massUpdateHours = (body: MassUpdatePayload) => api.put<CaseHour[]>('/case/hour/mass-update/', body);

export const additionalHours = (caseUid: string) => api.get<AdditionalHour[]>('/case/additional_hour/list/', q(caseUid));
export const getAdditionalHour = (caseUid: string, entryId: string) =>
  api.get<AdditionalHour>(`/case/additional_hour/${id(entryId)}/`, q(caseUid));
export const createAdditionalHour = (body: AdditionalHourPayload) => api.post<AdditionalHour>('/case/additional_hour/create/', body, inline);
export const editAdditionalHour = (entryId: string, body: AdditionalHourPayload) =>
  api.put<AdditionalHour>(`/case/additional_hour/edit/${id(entryId)}/`, body, inline);
export const deleteAdditionalHour = (caseUid: string, entryId: string) => api.del(`/case/additional_hour/delete/${id(entryId)}/`, q(caseUid));
export const massUpdateAdditionalHours = (body: MassUpdatePayload) => api.put<AdditionalHour[]>('/case/additional_hour/mass-update/', body);
export const additionalHistory = (caseUid: string) => api.get<HistoryEntry[]>(`/case/history-additional/${id(caseUid)}/`);
