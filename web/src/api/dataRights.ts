import { api } from './client';
import type { ExportView } from '../types/dataRights';

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
