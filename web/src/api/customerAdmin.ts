/** Staff-kept customers: create, update, details (the modal), dropdowns and the catalogue lists the form needs. */
import { api } from './client';
import type { CustomerRow } from '../types/customers';
import type {
  CustomerListStatus,
  CustomerForm,
  CustomerProfile,
  CustomerDetails,
  AccountManager,
  NamedEntry,
  CompanySize,
  DropdownOption,
} from '../types/customerAdmin';

export const createCustomer = (input: CustomerForm) => api.post<CustomerProfile>('/customer/create/', input, { suppressError: [400] });
export const updateCustomer = (uid: string, input: CustomerForm) =>
  api.put<CustomerProfile>(`/customer/update/${encodeURIComponent(uid)}/`, input, { suppressError: [400] });
export const customerDetails = (uid: string) => api.get<CustomerDetails>(`/customer/details/${encodeURIComponent(uid)}/`);
export const accountManagers = () => api.get<AccountManager[]>('/account_manager/dropdown/list/');
export const departments = () => api.get<NamedEntry[]>('/customer/department/');
export const knowledgeSectors = () => api.get<NamedEntry[]>('/knowledge/sector/list/');
export const companySizes = () => api.get<CompanySize[]>('/company-size/list/');
export const customerDropdown = (search: string) => api.get<DropdownOption[]>('/customer/dropdown/list/', { query: { search } });
export const companyDropdown = (search: string) => api.get<DropdownOption[]>('/company/dropdown/list/', { query: { search } });

/** GET /api/customer/list/ with the wider statuses (sales persons: all). */
export function fetchCustomerList(status: CustomerListStatus, cursor?: string | null, search?: string) {
  return api.get<{ results: CustomerRow[]; next: string | null }>('/customer/list/', {
    query: { status, cursor: cursor || undefined, search: search?.trim() || undefined },
  });
}
