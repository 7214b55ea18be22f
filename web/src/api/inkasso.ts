/**
 * Debt collection: claims under the approved Inkasso
 * account, their invoice upload, the account's identifiers at the provider
 * (`inkasso-hashs/`), and the contract-check link (item 5).
 */
import { api, idempotencyHeader } from './client';
import type { EnvelopeDocument, UploadTarget } from './addons';

export type ClaimStatus = 'registered' | 'reminder_sent' | 'collection' | 'paid' | 'closed';

export interface ClaimForm {
  debtor_name: string;
  debtor_number: string;
  debtor_address: string;
  debtor_email: string;
  /** Öre. */
  amount: number;
  invoice_number: string;
  /** YYYY-MM-DD. */
  due_date: string;
  invoice: EnvelopeDocument | null;
}

export interface Claim {
  uid: string;
  debtor_name: string;
  debtor_number: string;
  debtor_address: string;
  debtor_email: string;
  amount: number;
  invoice_number: string;
  due_date: string;
  invoice: EnvelopeDocument;
  status: ClaimStatus;
  created_at: string;
  updated_at: string;
}

export interface InkassoHash {
  organization_number: string;
  creditor_id: string;
  hash: string;
  approved_date?: string | null;
}

export const CLAIM_STATUSES: ClaimStatus[] = ['registered', 'reminder_sent', 'collection', 'paid', 'closed'];

export const listClaims = () => api.get<Claim[]>('/services/inkasso/claims/');
/** `key`: the form's Idempotency-Key (kept until the claim is registered). */
export const registerClaim = (body: ClaimForm, key: string) =>
  api.post<Claim>('/services/inkasso/claims/', body, { suppressError: [400], headers: idempotencyHeader(key) });
export const invoiceUploadUrl = (name: string) =>
  api.post<UploadTarget>('/services/inkasso/claims/upload-url/', { name }, { suppressError: [400] });
export const inkassoHashes = () => api.get<InkassoHash[]>('/inkasso-hashs/');
/** The contract-check site's link, and whom to call or mail with questions when configured. */
export const contractCheckLink = (lang: string) =>
  api.get<{ url: string; phone?: string | null; email?: string | null }>('/services/kontracto/', { query: { lang: lang.startsWith('en') ? 'en' : 'sv' } });

/** A claim's amount as öre (the money rule lives with the other field rules). */
export { parseSekToOre } from '../validation/fields';
