import { api } from './client';
import type { AuditFilter, AuditPage } from '../types/audit';
import { saveFile } from '../download';

/** The filter as query parameters: empty ones left out. */
function query(filter: AuditFilter, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = { ...filter, ...extra };
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => !!e[1]));
}

/** GET audit/ (admin): a page of the trail, newest first. */
export function auditPage(filter: AuditFilter, cursor: string | null): Promise<AuditPage> {
  return api.get<AuditPage>('/audit/', { query: query(filter, { cursor: cursor ?? undefined }) });
}

/** GET audit/mine/ (the customer): who at the firm opened its cases and documents. */
export function ownAuditPage(period: { from?: string; to?: string }, cursor: string | null): Promise<AuditPage> {
  return api.get<AuditPage>('/audit/mine/', { query: query(period, { cursor: cursor ?? undefined }) });
}

/** The file name of an export made today. */
export function auditFileName(today: Date = new Date()): string {
  return `audit-${today.toISOString().slice(0, 10)}.csv`;
}

/** GET audit/csv/ (admin): the filtered trail as the server's CSV, headings in `lang`, saved as a file. */
export async function exportAudit(filter: AuditFilter, lang: 'sv' | 'en'): Promise<void> {
  const blob = await api.blob('/audit/csv/', { query: query(filter, { lang }) });
  saveFile(blob, auditFileName());
}
