/** Customer accounts: registration, checks, business sectors, activation and the admin customer lists. */
import { api, idempotencyHeader } from './client';
import type { MessageResponse } from '../types/auth';
import type { CustomerState, RegistrationInput, BusinessSector, CustomerRow, CustomerPage, Bubbles } from '../types/customers';

/** For the sign-up page, which loads the API client only with this module. */
export { newIdempotencyKey } from './client';

/** POST /api/registration/ — 400s are shown on the form. The answer is the same whether or not the
 * address or company already had an account (the address is mailed then), so it names no account.
 * `key` makes a retried sign-up (a lost answer, a second press) create and mail nothing twice. */
export function register(input: RegistrationInput, key: string): Promise<{ message: string }> {
  return api.post('/registration/', input, { anonymous: true, suppressError: [400], headers: idempotencyHeader(key) });
}

/** POST /api/email/check/ — {available}; an invalid address is a 400 the caller ignores (the form rule says it). */
export function checkEmail(email: string): Promise<{ available: boolean }> {
  return api.post('/email/check/', { email }, { anonymous: true, suppressError: true });
}

/** POST /api/create/customer/company-registration-number/check/ */
export function checkRegistrationNumber(number: string): Promise<{ available: boolean }> {
  return api.post('/create/customer/company-registration-number/check/', { company_registration_number: number }, { anonymous: true, suppressError: true });
}

/** GET /api/business-sector/ (public). */
export function fetchBusinessSectors(): Promise<BusinessSector[]> {
  return api.get<BusinessSector[]>('/business-sector/', {});
}

export function createBusinessSector(name: string): Promise<BusinessSector> {
  return api.post('/business-sector/create/', { name }, { suppressError: [400] });
}

export function updateBusinessSector(id: string, name: string): Promise<BusinessSector> {
  return api.put(`/business-sector/update/${encodeURIComponent(id)}/`, { name }, { suppressError: [400] });
}

export function deleteBusinessSector(id: string): Promise<MessageResponse> {
  return api.del(`/business-sector/delete/${encodeURIComponent(id)}/`);
}

/** POST /api/customer/activation/check/ — is the mailed link still usable? */
export function checkActivationLink(token: string): Promise<{ valid: boolean }> {
  return api.post('/customer/activation/check/', { token }, { anonymous: true, suppressError: true });
}

/** POST /api/customer/activation/ — 400 link_invalid or password rules. */
export function activateAccount(input: { token: string; password: string; confirm_password: string }): Promise<MessageResponse> {
  return api.post('/customer/activation/', input, { anonymous: true, suppressError: [400] });
}

/** GET /api/customer/list/ (admin), 10 per page, newest first. */
export function fetchCustomers(status: CustomerState, cursor?: string | null, search?: string): Promise<CustomerPage> {
  return api.get('/customer/list/', { query: { status, cursor: cursor || undefined, search: search?.trim() || undefined } });
}

export function approveCustomer(uid: string): Promise<CustomerRow> {
  return api.post(`/customer/approve/${encodeURIComponent(uid)}/`, {});
}

export function sendActivationLink(uid: string): Promise<MessageResponse> {
  return api.post(`/admin/customer-user/send-password-link/${encodeURIComponent(uid)}/`, {});
}

export function deactivateUser(uid: string): Promise<{ uid: string; active: boolean }> {
  return api.post(`/user/deactivate/${encodeURIComponent(uid)}/`, {});
}

export function activateUser(uid: string): Promise<{ uid: string; active: boolean }> {
  return api.post(`/user/activate/${encodeURIComponent(uid)}/`, {});
}

/** GET /api/bubbles/ (admin): entity counts for the menu badges. */
export function fetchBubbles(): Promise<Bubbles> {
  return api.get('/bubbles/', { suppressError: true });
}
