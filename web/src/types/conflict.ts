/** Conflict-of-interest search DTOs of the API. */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type PartyKind = Schemas['PartyKind'];

export type Party = Schemas['Party'];

export type WordMatch = Schemas['WordMatch'];

/** Why a party matched (the server's `MatchReason`), most telling first. */
export type MatchReason = Schemas['MatchReason'];

export interface ConflictHit {
  party: Party;
  score: number;
  identity_match: boolean;
  words: WordMatch[];
  reasons: MatchReason[];
}

export interface ConflictSearchResult {
  search: string;
  count: number;
  results: ConflictHit[];
  /** When the search ran (RFC 3339), as the audit recorded it. */
  searched_at: string;
}
