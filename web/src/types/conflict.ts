/** Conflict-of-interest search DTOs of the API. */

export type PartyKind = 'customer' | 'company' | 'contact_person' | 'counterpart';

export interface Party {
  kind: PartyKind;
  uid: string;
  name: string;
  identity_number: string | null;
  customer_uid: string | null;
  context: string | null;
}

export interface WordMatch {
  query: string;
  matched: string;
  score: number;
}

/** Why a party matched (the server's `MatchReason`), most telling first. */
export type MatchReason =
  | 'same_number'
  | 'same_name'
  | 'spelled_differently'
  | 'initial'
  | 'company_form_ignored'
  | 'name_order'
  | 'more_words_in_name';

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
