/**
 * The pages the route catalogue names (routes/catalogue.tsx `PageKey`), each
 * loaded lazily but the dashboard, which every area opens (the account pages
 * too are lazy: two-factor settings shows a QR code, whose library no
 * dashboard may load).
 * Each lazy page's import is kept in a registry, so a menu entry can fetch its
 * page's chunk before it is clicked (`prefetchPage`: on hover, focus, or when
 * the entry comes into view).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadPageTexts } from '../i18n';
import { themedModule } from '../components/themed';
import Dashboard from '../pages/Dashboard';
import type { PageKey } from '../routes/catalogue';

/** What a route renders: a page titled with its route's title key. */
export type PageComponent = ComponentType<{ titleKey: string }> | LazyExoticComponent<ComponentType<{ titleKey: string }>>;

/** Each lazy page's import (the loader registry): a page component → what loads its chunk. */
const LOADERS = new Map<PageComponent, () => Promise<unknown>>();

/** A module's import with the texts of the areas' pages beside it (not with the area: src/budget.test.ts). */
const withPageTexts =
  <M,>(load: () => Promise<M>) =>
  (): Promise<M> =>
    Promise.all([load(), loadPageTexts()]).then(([m]) => m);

type PageModule = { default: ComponentType<{ titleKey: string }> };

/**
 * A lazily loaded page (a module's default export) with the pages' texts and antd's theme (components/themed.ts: the area's
 * shell draws no antd, so the pages that do bring it), its import registered for prefetching.
 * A first page (the customer's home) loads without either: its texts come with the area, and it draws no antd (an
 * area's first page: src/budget.test.ts).
 */
function lazyPage(load: () => Promise<PageModule>, first = false) {
  const loadPage = first ? load : () => themedModule<{ titleKey: string }>(withPageTexts(load));
  const page = lazy(loadPage);
  LOADERS.set(page, loadPage);
  return page;
}

/** A named export of a lazily loaded module as a page (with the pages' texts and antd's theme). */
function lazyNamed<K extends string>(load: () => Promise<Record<K, ComponentType<{ titleKey: string }>>>, name: K) {
  const loadPage = () => themedModule<{ titleKey: string }>(() => withPageTexts(load)().then((m) => ({ default: m[name] })));
  const page = lazy(loadPage);
  LOADERS.set(page, loadPage);
  return page;
}

const customerList = () => import('../pages/customers/CustomerList');
const businessSectors = () => import('../pages/customers/BusinessSectors');
const contactForm = () => import('../pages/users/ContactForm');
const staffList = () => import('../pages/people/StaffList');
const staffForm = () => import('../pages/people/StaffForm');
const catalogue = () => import('../pages/catalogue/Packages');
const namedLists = () => import('../pages/catalogue/NamedLists');
const serviceGate = () => import('../pages/subscriptions/ServiceGate');
const notificationPages = () => import('../pages/collaboration/NotificationPages');
const support = () => import('../pages/content/Support');
const adminContent = () => import('../pages/content/AdminContent');

export const PAGES: Record<PageKey, PageComponent> = {
  Dashboard,
  CustomerHome: lazyPage(() => import('../pages/subscriptions/CustomerHome'), true),
  Profile: lazyPage(() => import('../pages/profile/Profile')),
  ChangePassword: lazyPage(() => import('../pages/account/ChangePassword')),
  TwoFactorSettings: lazyPage(() => import('../pages/account/TwoFactorSettings')),
  // Cases
  CaseList: lazyPage(() => import('../pages/cases/CaseList')),
  CaseDetails: lazyPage(() => import('../pages/cases/CaseDetails')),
  CaseForm: lazyPage(() => import('../pages/cases/CaseForm')),
  CaseHistory: lazyPage(() => import('../pages/cases/CaseHistory')),
  HourUpdate: lazyPage(() => import('../pages/cases/HourUpdate')),
  AdditionalHourUpdate: lazyPage(() => import('../pages/cases/AdditionalHourUpdate')),
  AdditionalHistory: lazyPage(() => import('../pages/cases/AdditionalHistory')),
  // Customers
  ActiveCustomers: lazyNamed(customerList, 'ActiveCustomers'),
  PendingCustomers: lazyNamed(customerList, 'PendingCustomers'),
  InactiveCustomers: lazyNamed(customerList, 'InactiveCustomers'),
  LawyerActiveCustomers: lazyNamed(customerList, 'LawyerActiveCustomers'),
  LawyerInactiveCustomers: lazyNamed(customerList, 'LawyerInactiveCustomers'),
  SalesAllCustomers: lazyNamed(customerList, 'SalesAllCustomers'),
  SalesActiveCustomers: lazyNamed(customerList, 'SalesActiveCustomers'),
  SalesInactiveCustomers: lazyNamed(customerList, 'SalesInactiveCustomers'),
  CustomerDetailsPage: lazyNamed(() => import('../pages/customerAdmin/CustomerDetailsModal'), 'CustomerDetailsPage'),
  CustomerFormPage: lazyPage(() => import('../pages/customerAdmin/CustomerForm')),
  ManageCustomerPackages: lazyPage(() => import('../pages/subscriptions/ManageCustomerPackages')),
  BusinessSectors: lazyPage(() => import('../pages/customers/BusinessSectors')),
  BusinessSectorForm: lazyNamed(businessSectors, 'BusinessSectorForm'),
  DepartmentsPage: lazyNamed(namedLists, 'DepartmentsPage'),
  DepartmentFormPage: lazyNamed(namedLists, 'DepartmentFormPage'),
  DepartmentConnectPage: lazyNamed(namedLists, 'DepartmentConnectPage'),
  // Customer contacts
  ContactList: lazyPage(() => import('../pages/users/ContactList')),
  ContactCreate: lazyNamed(contactForm, 'ContactCreate'),
  ContactEdit: lazyNamed(contactForm, 'ContactEdit'),
  // Lawyers and sales persons
  InternalLawyers: lazyNamed(staffList, 'InternalLawyers'),
  ExternalLawyers: lazyNamed(staffList, 'ExternalLawyers'),
  LawyerForm: lazyNamed(staffForm, 'LawyerForm'),
  SalesPersons: lazyNamed(staffList, 'SalesPersons'),
  SalesPersonForm: lazyNamed(staffForm, 'SalesPersonForm'),
  // Settings
  KnowledgeSectorsPage: lazyNamed(namedLists, 'KnowledgeSectorsPage'),
  CaseTypesPage: lazyNamed(namedLists, 'CaseTypesPage'),
  PackagesPage: lazyNamed(catalogue, 'PackagesPage'),
  PackageCreatePage: lazyNamed(catalogue, 'PackageCreatePage'),
  ServicePlansPage: lazyNamed(catalogue, 'ServicePlansPage'),
  ServicePlanCreatePage: lazyNamed(catalogue, 'ServicePlanCreatePage'),
  // Conflict search and services
  StatisticsPage: lazyPage(() => import('../pages/statistics/StatisticsPage')),
  ConflictResults: lazyPage(() => import('../pages/conflict/ConflictResults')),
  ContractSignRoute: lazyNamed(serviceGate, 'ContractSignRoute'),
  CreditCheckRoute: lazyNamed(serviceGate, 'CreditCheckRoute'),
  InkassoRoute: lazyNamed(serviceGate, 'InkassoRoute'),
  InkassoHandOvers: lazyPage(() => import('../pages/addons/InkassoHandOvers')),
  ContractCheck: lazyNamed(serviceGate, 'ContractCheck'),
  VideoMeetingRoute: lazyNamed(serviceGate, 'VideoMeetingRoute'),
  // Collaboration
  NotificationsPage: lazyNamed(notificationPages, 'NotificationsPage'),
  MessagesPage: lazyNamed(notificationPages, 'MessagesPage'),
  LawyerRatingsPage: lazyPage(() => import('../pages/collaboration/LawyerRatingsPage')),
  // Content: academy, documents, support, terms
  Academy: lazyPage(() => import('../pages/content/Academy')),
  Documents: lazyPage(() => import('../pages/content/Documents')),
  Support: lazyPage(support),
  SupportStatistics: lazyNamed(support, 'SupportStatistics'),
  LegalTexts: lazyNamed(adminContent, 'LegalTexts'),
  TemplateFiles: lazyNamed(adminContent, 'TemplateFiles'),
  AuditPage: lazyPage(() => import('../pages/audit/AuditPage')),
  OwnAuditPage: lazyPage(() => import('../pages/audit/OwnAuditPage')),
  MyDataPage: lazyPage(() => import('../pages/dataRights/MyDataPage')),
  DataRequestsPage: lazyPage(() => import('../pages/dataRights/DataRequestsPage')),
};

const prefetched = new Set<PageKey>();

/**
 * Starts loading a page's chunk (and the chunks it imports) without showing
 * it: called when a menu entry is hovered, focused or comes into view, so the
 * click finds the page loaded. Once per page; eager pages and unknown keys do
 * nothing; a failed load is forgotten (the route retries it when opened).
 */
export function prefetchPage(key: PageKey | undefined): void {
  if (!key || prefetched.has(key)) return;
  const load = LOADERS.get(PAGES[key]);
  if (!load) return;
  prefetched.add(key);
  load().catch(() => prefetched.delete(key));
}

/** Whether a page is loaded with its route (lazily), i.e. whether `prefetchPage` has something to fetch. */
export function isLazyPage(key: PageKey): boolean {
  return LOADERS.has(PAGES[key]);
}
