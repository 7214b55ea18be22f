import { api } from './client';
import type { ErasureRequest, ExportView, RequestPage } from '../types/dataRights';

/** GET customer/data-export/{uid}/ (the customer itself, admin): its exports, newest first. */
export function dataExports(customerUid: string): Promise<ExportView[]> {
  return api.get<ExportView[]>(`/customer/data-export/${encodeURIComponent(customerUid)}/`);
}

/** POST customer/data-export/{uid}/: asks for a new export (built in the background; one at a time). */
export function requestDataExport(customerUid: string): Promise<ExportView> {
  // 409 export_running is shown on the panel itself.
  return api.post<ExportView>(`/customer/data-export/${encodeURIComponent(customerUid)}/`, undefined, { suppressError: [409] });
}

/** Whether the export is still being made (the page then polls). */
export function inProgress(e: Pick<ExportView, 'state'>): boolean {
  return e.state === 'queued' || e.state === 'running';
}

/** GET customer/erasure/{uid}/ (the customer itself, admin): its requests to be forgotten, newest first. */
export function erasureRequests(customerUid: string): Promise<ErasureRequest[]> {
  return api.get<ErasureRequest[]>(`/customer/erasure/${encodeURIComponent(customerUid)}/`);
}

/** POST customer/erasure/{uid}/ (the customer itself): asks to be forgotten; admin decides. */
export function requestErasure(customerUid: string): Promise<ErasureRequest> {
  // 409 erasure_open is shown on the panel itself.
  return api.post<ErasureRequest>(`/customer/erasure/${encodeURIComponent(customerUid)}/`, undefined, { suppressError: [409] });
}

/** POST customer/erasure/{uid}/{id}/decide/ (admin): approve, or refuse with a reason. */
export function decideErasure(customerUid: string, id: string, approve: boolean, reason?: string): Promise<ErasureRequest> {
  return api.post<ErasureRequest>(
    `/customer/erasure/${encodeURIComponent(customerUid)}/${encodeURIComponent(id)}/decide/`,
    { approve, reason: reason ?? null },
    { suppressError: [400] },
  );
}

/** GET data-requests/ (admin): every customer's exports and erasures, newest first, optionally in one state. */
export function dataRequests(status?: string, cursor?: string | null): Promise<RequestPage> {
  return api.get<RequestPage>('/data-requests/', { query: { status: status || undefined, cursor: cursor || undefined } });
}
