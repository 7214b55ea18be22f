import { api } from './client';
import type { ConflictSearchResult } from '../types/conflict';

/** GET search/fuzzy/?search=… (admin and lawyers; every search is audited). */
export function searchConflicts(query: string): Promise<ConflictSearchResult> {
  return api.get<ConflictSearchResult>('/search/fuzzy/', { query: { search: query } });
}
