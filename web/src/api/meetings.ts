/** Video meetings: the customer's bookings and the lawyer's offered times. Shapes follow the OpenAPI document. */
import { api } from './client';
import type { components } from '../types/api.gen';

type Schemas = components['schemas'];

export type Meeting = Schemas['Meeting'];

export type Slot = Schemas['Slot'];

export type BookableCase = Schemas['BookableCase'];

const base = '/services/video-meeting/';
export const listMeetings = () => api.get<Meeting[]>(base);
export const listBookableCases = () => api.get<BookableCase[]>(`${base}cases/`);
export const listFreeSlots = (caseUid: string) => api.get<Slot[]>(`${base}cases/${encodeURIComponent(caseUid)}/slots/`);
export const bookMeeting = (body: { case_uid: string; slot_uid: string }) =>
  api.post<Meeting>(base, body, { suppressError: [400] });
export const cancelMeeting = (uid: string) => api.post<Meeting>(`${base}${encodeURIComponent(uid)}/cancel/`);

const lawyerBase = '/lawyer/video-meetings/';
export const listLawyerSlots = () => api.get<Slot[]>(lawyerBase);
export const offerSlot = (body: { start: string; minutes: number }) => api.post<Slot>(lawyerBase, body, { suppressError: [400] });
export const removeSlot = (uid: string) => api.del<void>(`${lawyerBase}${encodeURIComponent(uid)}/`);
export const lawyerCancelMeeting = (slotUid: string) => api.post<Meeting>(`${lawyerBase}${encodeURIComponent(slotUid)}/cancel/`);
