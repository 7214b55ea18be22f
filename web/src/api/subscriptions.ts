/** Catalogue and subscription calls (spec §7). Shapes follow the API's OpenAPI document. */
import { api } from './client';

export type SubscriptionStatus = 'Expired' | 'Deactivated' | 'Active' | 'Inactive' | 'Consumed';

export interface NamedRef {
  id: number | null;
  name: string;
}

/** Spec §3 purchased service row; `status` is computed by the server (spec §4). */
export interface PurchasedService {
  id: number;
  customer_uid: string;
  package_id: number | null;
  service: { id: number; name: string };
  service_plan: NamedRef | null;
  packages: NamedRef | null;
  limit: number | null;
  consumed_limit: number;
  hour: number;
  consumed_hour: number;
  hour_less_than_consumed: boolean;
  advance: boolean;
  active: boolean;
  expired: boolean;
  start_date: string;
  expire_on: string;
  auto_update_date_end: string | null;
  child: number | null;
  updated_at: string;
  created_at: string;
  status: SubscriptionStatus;
}

export interface CustomerServices {
  purchased_services: PurchasedService[];
  bisnode_account_active: boolean;
  bisnode_account: string | null;
}

export interface Package {
  id: number;
  name: string;
  hours: number;
  price: number;
  duration_days: number;
  public: boolean;
}

export interface ServicePlan {
  id: number;
  name: string;
  service_id: number;
  limit: number | null;
  hours: number | null;
  price: number;
  expiry_days: number;
  public: boolean;
}

export interface Service {
  id: number;
  name: string;
  hour_based: boolean;
}

export interface NamedEntry {
  id: number;
  name: string;
  description: string;
}

export interface Message {
  message: string;
}

export const customerServices = (uid: string) => api.get<CustomerServices>(`/customer/${encodeURIComponent(uid)}/`);
export const listPackages = () => api.get<Package[]>('/packages/list/');
export const createPackage = (body: Record<string, unknown>) => api.post<Package>('/packages/', body);
export const listServicePlans = () => api.get<ServicePlan[]>('/serviceplans/list/');
export const createServicePlan = (body: Record<string, unknown>) => api.post<ServicePlan>('/serviceplans/', body);
export const listServices = () => api.get<Service[]>('/services/');
export const buyPackage = (package_id: number) => api.post<PurchasedService>('/subscription/packages/', { package_id });
export const buyServicePlan = (service_plan_id: number) => api.post<PurchasedService>('/subscription/serviceplans/', { service_plan_id });
export const addToCustomer = (body: Record<string, unknown>) => api.post<PurchasedService>('/customer/purchase-services/', body);
export const changeService = (id: number, body: { start_date: string; expire_on: string; hour?: string }) =>
  api.patch<Message>(`/puchasedservices/${id}/`, body);
export const setAutoUpdateDate = (id: number, auto_update_date_end: string | null) =>
  api.put<Message>(`/services/update/auto/${id}/`, { auto_update_date_end });
export const activateService = (id: number) => api.put<Message>(`/customer/purchase-services/activate/${id}/`);
export const deleteService = (id: number) => api.del<Message>(`/customer/purchase-services/delete/${id}/`);
export const timeReport = (id: number, start_date: string, end_date: string) =>
  api.get<string>(`/customer/purchase-services/${id}/excel/`, { query: { start_date, end_date }, headers: { Accept: 'text/csv' } });

/** The admin-kept named lists. */
export type NamedListKind = 'knowledge' | 'caseTypes' | 'departments';
const namedPaths: Record<NamedListKind, { list: string; base: string }> = {
  knowledge: { list: '/knowledge/sector/list/', base: '/knowledge/sector/' },
  caseTypes: { list: '/typeofcase/list/', base: '/typeofcase/' },
  departments: { list: '/customer/department/', base: '/customer/department/' },
};
export const listNamed = (kind: NamedListKind) => api.get<NamedEntry[]>(namedPaths[kind].list);
export const createNamed = (kind: NamedListKind, name: string, description = '') =>
  api.post<NamedEntry>(namedPaths[kind].base, { name, description });
export const updateNamed = (kind: NamedListKind, id: number, name: string, description = '') =>
  api.put<NamedEntry>(`${namedPaths[kind].base}${id}/`, { name, description });
export const deleteNamed = (kind: NamedListKind, id: number) => api.del<Message>(`${namedPaths[kind].base}${id}/`);
export const getDepartment = (id: number | string) => api.get<NamedEntry>(`/customer/department/${id}/`);
export const connectDepartment = (customer_uid: string, department_id: number) =>
  api.post<Message>('/customer/customer-department/', { customer_uid, department_id });
