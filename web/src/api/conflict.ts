import { api } from './client';
import type { ConflictSearchResult } from '../types/conflict';
import { saveFile } from '../download';

/** GET search/fuzzy/?search=… (admin and lawyers; every search is audited). */
export function searchConflicts(query: string): Promise<ConflictSearchResult> {
  return api.get<ConflictSearchResult>('/search/fuzzy/', { query: { search: query } });
}

/** GET search/fuzzy/audit/csv/?month=YYYY-MM (admin): the month's searches as CSV, saved as a file. */
export async function exportConflictAudit(month?: string): Promise<void> {
  const blob = await api.blob('/search/fuzzy/audit/csv/', month ? { query: { month } } : {});
  saveFile(blob, `conflict-searches-${month ?? new Date().toISOString().slice(0, 7)}.csv`);
}
