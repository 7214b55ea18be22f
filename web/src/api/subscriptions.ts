/** Catalogue and subscription calls (spec §7). Shapes follow the API's OpenAPI document. */
import { api } from './client';
import { normaliseNumber } from '../format';
import type {
  PurchasedService,
  CustomerServices,
  Package,
  ServicePlan,
  Service,
  NamedEntry,
  Message,
  NamedListKind,
} from '../types/subscriptions';

export const customerServices = (uid: string) => api.get<CustomerServices>(`/customer/${encodeURIComponent(uid)}/`);
export const listPackages = () => api.get<Package[]>('/packages/list/');
/** Amounts and hours as typed ("24 900,50", "1,5") sent as plain decimals ("24900.50", "1.5"), the one place forms' numbers are normalised. */
export function typedNumbers<T extends Record<string, unknown>>(body: T, fields: readonly string[] = ['price', 'hours', 'hour', 'limit']): T {
  const out: Record<string, unknown> = { ...body };
  for (const f of fields) if (typeof out[f] === 'string') out[f] = normaliseNumber(out[f] as string);
  return out as T;
}

export const createPackage = (body: Record<string, unknown>) => api.post<Package>('/packages/', typedNumbers(body));
export const listServicePlans = () => api.get<ServicePlan[]>('/serviceplans/list/');
export const createServicePlan = (body: Record<string, unknown>) => api.post<ServicePlan>('/serviceplans/', typedNumbers(body));
export const updatePackage = (id: number, body: Record<string, unknown>) => api.put<Package>(`/packages/${id}/`, typedNumbers(body));
/** Retire (no longer sold to anyone; bought rows keep it) or reinstate. */
export const retirePackage = (id: number, retired: boolean) => api.post<Package>(`/packages/${id}/retire/`, { retired });
/** Only a package never bought; a bought one is refused (`offer_bought`). */
export const deletePackage = (id: number) => api.del<Message>(`/packages/${id}/`);
export const updateServicePlan = (id: number, body: Record<string, unknown>) => api.put<ServicePlan>(`/serviceplans/${id}/`, typedNumbers(body));
export const retireServicePlan = (id: number, retired: boolean) => api.post<ServicePlan>(`/serviceplans/${id}/retire/`, { retired });
export const deleteServicePlan = (id: number) => api.del<Message>(`/serviceplans/${id}/`);
export const listServices = () => api.get<Service[]>('/services/');
export const buyPackage = (package_id: number) => api.post<PurchasedService>('/subscription/packages/', { package_id });
export const buyServicePlan = (service_plan_id: number) => api.post<PurchasedService>('/subscription/serviceplans/', { service_plan_id });
export const addToCustomer = (body: Record<string, unknown>) => api.post<PurchasedService>('/customer/purchase-services/', typedNumbers(body));
export const changeService = (id: number, body: { start_date: string; expire_on: string; hour?: string }) =>
  api.patch<Message>(`/puchasedservices/${id}/`, typedNumbers(body));
export const setAutoUpdateDate = (id: number, auto_update_date_end: string | null) =>
  api.put<Message>(`/services/update/auto/${id}/`, { auto_update_date_end });
export const activateService = (id: number) => api.put<Message>(`/customer/purchase-services/activate/${id}/`);
export const deleteService = (id: number) => api.del<Message>(`/customer/purchase-services/delete/${id}/`);
/** The row's CSV time report; `lang` (sv, en): the headings in the reader's language. */
export const timeReport = (id: number, start_date: string, end_date: string, lang = 'sv') =>
  api.get<string>(`/customer/purchase-services/${id}/excel/`, {
    query: { start_date, end_date, lang: lang.startsWith('en') ? 'en' : 'sv' },
    headers: { Accept: 'text/csv' },
  });

const namedPaths: Record<NamedListKind, { list: string; base: string }> = {
  knowledge: { list: '/knowledge/sector/list/', base: '/knowledge/sector/' },
  caseTypes: { list: '/typeofcase/list/', base: '/typeofcase/' },
  departments: { list: '/customer/department/', base: '/customer/department/' },
};
export const listNamed = (kind: NamedListKind) => api.get<NamedEntry[]>(namedPaths[kind].list);
/** What admin types for a named-list entry: the Swedish name, the English one (optional), a description. */
export interface NamedInput {
  name: string;
  name_en?: string | null;
  description?: string;
}
const namedBody = (v: NamedInput) => ({ name: v.name, name_en: v.name_en?.trim() || null, description: v.description ?? '' });
export const createNamed = (kind: NamedListKind, v: NamedInput) => api.post<NamedEntry>(namedPaths[kind].base, namedBody(v));
export const updateNamed = (kind: NamedListKind, id: number, v: NamedInput) => api.put<NamedEntry>(`${namedPaths[kind].base}${id}/`, namedBody(v));
export const deleteNamed = (kind: NamedListKind, id: number) => api.del<Message>(`${namedPaths[kind].base}${id}/`);
export const getDepartment = (id: number | string) => api.get<NamedEntry>(`/customer/department/${id}/`);
export const connectDepartment = (customer_uid: string, department_id: number) =>
  api.post<Message>('/customer/customer-department/', { customer_uid, department_id });
