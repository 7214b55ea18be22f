/** Add-on services: the verified-signing token, envelopes, credit checks. Shapes follow the OpenAPI document. */
import { api, idempotencyHeader } from './client';

export type EnvelopeState = 'draft' | 'sent' | 'completed' | 'cancelled' | 'expired';

export interface Recipient {
  name: string;
  email: string;
  phone: string;
  /** nb, sv, en, da, fi */
  locale: string;
  role: 'signer' | 'approver' | 'viewer';
  notify_sms: boolean;
  require_auth: boolean;
  sign_method: string;
  signed?: boolean;
}

export interface EnvelopeDocument {
  key: string;
  name: string;
}

export interface Envelope {
  uid: string;
  name: string;
  documents: EnvelopeDocument[];
  recipients: Recipient[];
  sequential: boolean;
  state: EnvelopeState;
  created_at: string;
  updated_at: string;
}

export interface EnvelopeForm {
  name: string;
  documents: EnvelopeDocument[];
  recipients: Recipient[];
  sequential: boolean;
}

export interface TokenState {
  registered: boolean;
  valid: boolean;
}

export interface UploadTarget {
  url: string;
  key: string;
  content_type: string;
  name: string;
}

export interface CreditReport {
  uid: string;
  kind: 'company' | 'person';
  number: string;
  status: 'ready' | 'pending';
  name?: string | null;
  rating?: string | null;
  payment_remarks?: number | null;
  turnover?: number | null;
  /** A person's report: the legitimate need recorded with the lookup. */
  legitimate_need?: string | null;
  /** A person's report: where the copy the law requires went (or goes). */
  subject_copy?: { channel: 'email' | 'letter'; to: string; sent_at?: string | null } | null;
  created_at: string;
}

export interface CreditLookupForm {
  kind: string;
  number: string;
  /** Required for a person: why the report is needed. */
  legitimate_need?: string;
  /** A person's copy by e-mail, or else by letter to this address. */
  copy_email?: string;
  copy_address?: string;
}

const base = '/services/contract-sign/';
export const tokenCheck = () => api.get<TokenState>('/verified/check/');
export const tokenRegister = (body: { company: string; email: string; password: string }) =>
  api.post<TokenState>('/verified/', body, { suppressError: [400] });
export const tokenLogin = (body: { email: string; password: string }) => api.post<TokenState>('/verified/auth/', body, { suppressError: [400] });
export const listEnvelopes = () => api.get<Envelope[]>(base);
export const getEnvelope = (uid: string) => api.get<Envelope>(`${base}${encodeURIComponent(uid)}/`);
/** `key`: the form's Idempotency-Key (kept until the envelope is saved). */
export const createEnvelope = (body: EnvelopeForm, key: string) =>
  api.post<Envelope>(base, body, { suppressError: [400], headers: idempotencyHeader(key) });
export const updateEnvelope = (uid: string, body: EnvelopeForm) => api.put<Envelope>(`${base}${encodeURIComponent(uid)}/`, body, { suppressError: [400] });
export const envelopeAction = (uid: string, action: 'send' | 'remind' | 'cancel') => api.post<Envelope>(`${base}${encodeURIComponent(uid)}/${action}/`);
export const signedDownload = (uid: string) => api.get<{ url: string; name: string }>(`${base}${encodeURIComponent(uid)}/download/`);
export const pdfUploadUrl = (name: string) => api.post<UploadTarget>(`${base}upload-url/`, { name }, { suppressError: [400] });
export const listCreditReports = () => api.get<CreditReport[]>('/services/credit-check/');
export const creditLookup = (body: CreditLookupForm) =>
  api.post<CreditReport>('/services/credit-check/', body, { suppressError: [400] });


export interface InkassoAccount {
  home_page: string;
  bank_name: string;
  bank_account: string;
  plus_giro: string;
  bank_giro: string;
  iban: string;
  bic: string;
  approved_ip: string;
  contact_name: string;
  organization_number: string;
}

export interface InkassoProspect {
  account: InkassoAccount;
  /** applied: handed over to the office, which registers the company with the collection agency. */
  state: 'applied' | 'approved' | 'rejected';
  applied_at: string;
  /** When the hand-over mail went out (none: not yet, it is sent again). */
  handed_over_at?: string | null;
  approved_date?: string | null;
  /** The company's customer number at the collection agency, once approved. */
  creditor_id?: string | null;
}

export const inkassoProspect = () => api.get<InkassoProspect | null>('/inkasso/prospect/');
export const applyInkasso = (body: InkassoAccount) => api.put<InkassoProspect>('/inkasso/prospect/', body, { suppressError: [400] });
