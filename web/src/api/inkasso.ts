/**
 * Debt collection: claims under the approved Inkasso account, their invoice
 * upload, the account's identifiers at the collection agency
 * (`inkasso-hashs/`), the office's hand-overs to the agency (admin), and
 * the contract-check link.
 */
import { api, idempotencyHeader } from './client';
import type { components } from '../types/api.gen';
import type { InkassoProspect, UploadTarget } from './addons';

type Schemas = components['schemas'];

/** submitted: waiting for the office to hand it to the agency; then as the agency reports it. */
export type ClaimStatus = Schemas['Claim']['status'];

export type ClaimForm = Schemas['ClaimForm'];

export type Claim = Schemas['Claim'];

export interface InkassoHash {
  organization_number: string;
  creditor_id: string;
  hash: string;
  approved_date?: string | null;
}

export const CLAIM_STATUSES: ClaimStatus[] = ['submitted', 'registered', 'reminder_sent', 'collection', 'paid', 'closed'];

/** An open application, as the office's hand-over page shows it. */
export interface ApplicationHandOver {
  customer_uid: string;
  customer_name: string;
  prospect: InkassoProspect;
}

/** An open claim, with its creditor's customer number at the agency. */
export interface ClaimHandOver {
  customer_uid: string;
  customer_name: string;
  creditor_id?: string | null;
  claim: Claim & { customer_uid: string };
}

export interface HandOvers {
  applications: ApplicationHandOver[];
  claims: ClaimHandOver[];
}

const seg = encodeURIComponent;
export const listHandOvers = () => api.get<HandOvers>('/admin/inkasso/');
export const decideApplication = (customerUid: string, body: { state: 'approved' | 'rejected'; creditor_id?: string }) =>
  api.put<InkassoProspect>(`/admin/inkasso/${seg(customerUid)}/prospect/`, body, { suppressError: [400] });
export const updateHandedOverClaim = (customerUid: string, uid: string, body: { status: ClaimStatus; agency_reference?: string }) =>
  api.put<Claim>(`/admin/inkasso/${seg(customerUid)}/claims/${seg(uid)}/`, body, { suppressError: [400] });
export const claimInvoiceLink = (customerUid: string, uid: string) =>
  api.get<{ url: string; name: string }>(`/admin/inkasso/${seg(customerUid)}/claims/${seg(uid)}/invoice/`);

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
