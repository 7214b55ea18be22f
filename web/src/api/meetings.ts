/** Video meetings: the customer's bookings and the lawyer's offered times. Shapes follow the OpenAPI document. */
import { api } from './client';

export interface Meeting {
  uid: string;
  slot_uid: string;
  lawyer_uid: string;
  lawyer_name: string;
  customer_uid: string;
  customer_name: string;
  case_uid: string;
  case_number: string;
  subject: string;
  /** RFC 3339 (UTC); shown in Europe/Stockholm. */
  start: string;
  minutes: number;
  room_url: string;
  booked_by_name: string;
}

export interface Slot {
  uid: string;
  lawyer_uid: string;
  lawyer_name: string;
  start: string;
  minutes: number;
  meeting?: Meeting | null;
}

export interface BookableCase {
  uid: string;
  case_number: string;
  subject: string;
  lawyer_uid: string;
  lawyer_name: string;
}

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
