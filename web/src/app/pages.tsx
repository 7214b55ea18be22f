/**
 * The pages the route catalogue names (routes/catalogue.tsx `PageKey`), each
 * loaded lazily but the dashboard and account pages, which every area opens.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import ChangePassword from '../pages/account/ChangePassword';
import TwoFactorSettings from '../pages/account/TwoFactorSettings';
import Dashboard from '../pages/Dashboard';
import type { PageKey } from '../routes/catalogue';

/** What a route renders: a page titled with its route's title key. */
export type PageComponent = ComponentType<{ titleKey: string }> | LazyExoticComponent<ComponentType<{ titleKey: string }>>;

/** A named export of a lazily loaded module as a page. */
function lazyNamed<K extends string>(load: () => Promise<Record<K, ComponentType<{ titleKey: string }>>>, name: K) {
  return lazy(() => load().then((m) => ({ default: m[name] })));
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
  CustomerHome: lazy(() => import('../pages/subscriptions/CustomerHome')),
  Profile: lazy(() => import('../pages/profile/Profile')),
  ChangePassword,
  TwoFactorSettings,
  // Cases
  CaseList: lazy(() => import('../pages/cases/CaseList')),
  CaseDetails: lazy(() => import('../pages/cases/CaseDetails')),
  CaseForm: lazy(() => import('../pages/cases/CaseForm')),
  CaseHistory: lazy(() => import('../pages/cases/CaseHistory')),
  HourUpdate: lazy(() => import('../pages/cases/HourUpdate')),
  AdditionalHourUpdate: lazy(() => import('../pages/cases/AdditionalHourUpdate')),
  AdditionalHistory: lazy(() => import('../pages/cases/AdditionalHistory')),
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
  CustomerFormPage: lazy(() => import('../pages/customerAdmin/CustomerForm')),
  ManageCustomerPackages: lazy(() => import('../pages/subscriptions/ManageCustomerPackages')),
  BusinessSectors: lazy(() => import('../pages/customers/BusinessSectors')),
  BusinessSectorForm: lazyNamed(businessSectors, 'BusinessSectorForm'),
  DepartmentsPage: lazyNamed(namedLists, 'DepartmentsPage'),
  DepartmentFormPage: lazyNamed(namedLists, 'DepartmentFormPage'),
  DepartmentConnectPage: lazyNamed(namedLists, 'DepartmentConnectPage'),
  // Customer contacts
  ContactList: lazy(() => import('../pages/users/ContactList')),
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
  StatisticsPage: lazy(() => import('../pages/statistics/StatisticsPage')),
  ConflictResults: lazy(() => import('../pages/conflict/ConflictResults')),
  ContractSignRoute: lazyNamed(serviceGate, 'ContractSignRoute'),
  CreditCheckRoute: lazyNamed(serviceGate, 'CreditCheckRoute'),
  InkassoRoute: lazyNamed(serviceGate, 'InkassoRoute'),
  ContractCheck: lazyNamed(serviceGate, 'ContractCheck'),
  VideoMeetingRoute: lazyNamed(serviceGate, 'VideoMeetingRoute'),
  // Collaboration
  NotificationsPage: lazyNamed(notificationPages, 'NotificationsPage'),
  MessagesPage: lazyNamed(notificationPages, 'MessagesPage'),
  LawyerRatingsPage: lazy(() => import('../pages/collaboration/LawyerRatingsPage')),
  // Content: academy, documents, support, terms (issue 19)
  Academy: lazy(() => import('../pages/content/Academy')),
  Documents: lazy(() => import('../pages/content/Documents')),
  Support: lazy(support),
  SupportStatistics: lazyNamed(support, 'SupportStatistics'),
  LegalTexts: lazyNamed(adminContent, 'LegalTexts'),
  TemplateFiles: lazyNamed(adminContent, 'TemplateFiles'),
};
