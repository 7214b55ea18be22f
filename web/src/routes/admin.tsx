import {
  BankOutlined,
  BarChartOutlined,
  DashboardOutlined,
  FolderOpenOutlined,
  PlayCircleOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import RoleApp from '../layout/RoleApp';
import ChangePassword from '../pages/account/ChangePassword';
import TwoFactorSettings from '../pages/account/TwoFactorSettings';
import Dashboard from '../pages/Dashboard';
import type { RoleModule, RouteDef, MenuDef } from './types';
import { lazy, type ComponentType } from 'react';
const CaseList = lazy(() => import('../pages/cases/CaseList'));
const CaseDetails = lazy(() => import('../pages/cases/CaseDetails'));
const CaseForm = lazy(() => import('../pages/cases/CaseForm'));
const CaseHistory = lazy(() => import('../pages/cases/CaseHistory'));
const HourUpdate = lazy(() => import('../pages/cases/HourUpdate'));
const AdditionalHourUpdate = lazy(() => import('../pages/cases/AdditionalHourUpdate'));
const AdditionalHistory = lazy(() => import('../pages/cases/AdditionalHistory'));

const lazyNamed = <K extends string>(load: () => Promise<Record<K, ComponentType<{ titleKey: string }>>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));
const catalogue = () => import('../pages/catalogue/Packages');
const named = () => import('../pages/catalogue/NamedLists');
const PackagesPage = lazyNamed(catalogue, 'PackagesPage');
const PackageCreatePage = lazyNamed(catalogue, 'PackageCreatePage');
const ServicePlansPage = lazyNamed(catalogue, 'ServicePlansPage');
const ServicePlanCreatePage = lazyNamed(catalogue, 'ServicePlanCreatePage');
const KnowledgeSectorsPage = lazyNamed(named, 'KnowledgeSectorsPage');
const CaseTypesPage = lazyNamed(named, 'CaseTypesPage');
const DepartmentsPage = lazyNamed(named, 'DepartmentsPage');
const DepartmentFormPage = lazyNamed(named, 'DepartmentFormPage');
const DepartmentConnectPage = lazyNamed(named, 'DepartmentConnectPage');
const ManageCustomerPackages = lazy(() => import('../pages/subscriptions/ManageCustomerPackages'));

const ContactCreate = lazy(() => import('../pages/users/ContactForm').then((m) => ({ default: m.ContactCreate })));
const ContactEdit = lazy(() => import('../pages/users/ContactForm').then((m) => ({ default: m.ContactEdit })));
const customerList = () => import('../pages/customers/CustomerList');
const ActiveCustomers = lazy(() => customerList().then((m) => ({ default: m.ActiveCustomers })));
const PendingCustomers = lazy(() => customerList().then((m) => ({ default: m.PendingCustomers })));
const InactiveCustomers = lazy(() => customerList().then((m) => ({ default: m.InactiveCustomers })));
const BusinessSectors = lazy(() => import('../pages/customers/BusinessSectors'));
const CustomerFormPage = lazy(() => import('../pages/customerAdmin/CustomerForm'));
const CustomerDetailsPage = lazy(() => import('../pages/customerAdmin/CustomerDetailsModal').then((m) => ({ default: m.CustomerDetailsPage })));
const BusinessSectorForm = lazy(() => import('../pages/customers/BusinessSectors').then((m) => ({ default: m.BusinessSectorForm })));

const ConflictResults = lazy(() => import('../pages/conflict/ConflictResults'));
const staffList = () => import('../pages/people/StaffList');
const InternalLawyers = lazy(() => staffList().then((m) => ({ default: m.InternalLawyers })));
const ExternalLawyers = lazy(() => staffList().then((m) => ({ default: m.ExternalLawyers })));
const SalesPersons = lazy(() => staffList().then((m) => ({ default: m.SalesPersons })));
const staffForm = () => import('../pages/people/StaffForm');
const LawyerForm = lazy(() => staffForm().then((m) => ({ default: m.LawyerForm })));
const SalesPersonForm = lazy(() => staffForm().then((m) => ({ default: m.SalesPersonForm })));

const P = '/admin/';

/** Admin routes (spec §2, /admin/). */
export const routes: RouteDef[] = [
  { path: '', titleKey: 'dashboard', Component: Dashboard },
  { path: 'change-password', titleKey: 'changePassword', Component: ChangePassword },
  { path: 'update-2fa', titleKey: 'update2fa', Component: TwoFactorSettings },
  // Cases
  { path: 'cases', titleKey: 'cases', Component: CaseList },
  { path: 'cases/my-cases', titleKey: 'myCases', Component: CaseList },
  { path: 'cases/pending', titleKey: 'pendingCases', Component: CaseList },
  { path: 'cases/available', titleKey: 'availableCases', Component: CaseList },
  { path: 'cases/closed', titleKey: 'closedCases', Component: CaseList },
  { path: 'cases/details/:id', titleKey: 'caseDetails', Component: CaseDetails },
  { path: 'cases/case-hour/update/:id', titleKey: 'caseHourUpdate', Component: HourUpdate },
  { path: 'cases/additional_hour/update/:id', titleKey: 'additionalHourUpdate', Component: AdditionalHourUpdate },
  { path: 'cases/history/:id', titleKey: 'caseHistory', Component: CaseHistory },
  { path: 'cases/history-additional/:id', titleKey: 'caseHistoryAdditional', Component: AdditionalHistory },
  { path: 'case/create', titleKey: 'caseCreate', Component: CaseForm },
  { path: 'case/update/:case_uid', titleKey: 'caseUpdate', Component: CaseForm },
  // Customers
  { path: 'customers', titleKey: 'customersActive', Component: ActiveCustomers },
  { path: 'customers/inactive', titleKey: 'customersInactive', Component: InactiveCustomers },
  { path: 'customers/pending', titleKey: 'customersPending', Component: PendingCustomers },
  { path: 'customers/details/:customer_uid', titleKey: 'customerDetails', Component: CustomerDetailsPage },
  { path: 'customer/create', titleKey: 'customerCreate', Component: CustomerFormPage },
  { path: 'customer/update/:profile_uid', titleKey: 'customerUpdate', Component: CustomerFormPage },
  { path: 'customer/manage/package/:customer_uid', titleKey: 'customerManagePackage', Component: ManageCustomerPackages },
  { path: 'customers/user/create', titleKey: 'companyUserCreate', Component: ContactCreate },
  { path: 'customers/user/update/:contact_id', titleKey: 'companyUserUpdate', Component: ContactEdit },
  // Lawyers
  { path: 'lawyers', titleKey: 'lawyers', Component: InternalLawyers },
  { path: 'lawyers/external', titleKey: 'lawyersExternal', Component: ExternalLawyers },
  { path: 'lawyer/create', titleKey: 'lawyerCreate', Component: LawyerForm },
  { path: 'lawyer/update/:lawyer_uid', titleKey: 'lawyerUpdate', Component: LawyerForm },
  // Sales persons
  { path: 'salespersons', titleKey: 'salesPersons', Component: SalesPersons },
  { path: 'salesperson/create', titleKey: 'salesPersonCreate', Component: SalesPersonForm },
  { path: 'salesperson/update/:salesPerson_id', titleKey: 'salesPersonUpdate', Component: SalesPersonForm },
  // Statistics
  { path: 'statistics/account', titleKey: 'statisticsAccount' },
  { path: 'statistics/customer', titleKey: 'statisticsCustomer' },
  { path: 'statistics/finance', titleKey: 'statisticsFinance' },
  { path: 'statistics/activity', titleKey: 'statisticsActivity' },
  { path: 'statistics/legal', titleKey: 'statisticsLegal' },
  // Settings
  { path: 'settings/knowledge-sectors', titleKey: 'knowledgeSectors', Component: KnowledgeSectorsPage },
  { path: 'settings/case-types', titleKey: 'caseTypes', Component: CaseTypesPage },
  { path: 'settings/packages', titleKey: 'packages', Component: PackagesPage },
  { path: 'settings/packages/create', titleKey: 'packageCreate', Component: PackageCreatePage },
  { path: 'settings/service-plans', titleKey: 'servicePlans', Component: ServicePlansPage },
  { path: 'settings/service-plans/create', titleKey: 'servicePlanCreate', Component: ServicePlanCreatePage },
  // Business sectors
  { path: 'customers/business-sector', titleKey: 'businessSectors', Component: BusinessSectors },
  { path: 'customers/business-sector/create', titleKey: 'businessSectorCreate', Component: BusinessSectorForm },
  { path: 'customers/business-sector/update/:id', titleKey: 'businessSectorUpdate', Component: BusinessSectorForm },
  // Departments
  { path: 'customer/department', titleKey: 'departments', Component: DepartmentsPage },
  { path: 'customer/department/create', titleKey: 'departmentCreate', Component: DepartmentFormPage },
  { path: 'customer/department/edit/:department_id', titleKey: 'departmentEdit', Component: DepartmentFormPage },
  { path: 'customer/department/connect/:customer_uid', titleKey: 'departmentConnect', Component: DepartmentConnectPage },
  // Other
  { path: 'interest', titleKey: 'interest', Component: ConflictResults },
  { path: 'freja-academy', titleKey: 'frejaAcademy' },
];

/** Admin menu (spec §2). */
export const menu: MenuDef[] = [
  { id: 'dashboard', labelKey: 'dashboard', path: P, icon: <DashboardOutlined /> },
  { id: 'cases', labelKey: 'cases', path: `${P}cases/`, icon: <FolderOpenOutlined />, badge: 'pending_cases' },
  { id: 'lawyers', labelKey: 'lawyers', path: `${P}lawyers/`, icon: <BankOutlined /> },
  {
    id: 'customers',
    labelKey: 'customers',
    icon: <TeamOutlined />,
    children: [
      { id: 'customers-active', labelKey: 'customersActive', path: `${P}customers/` },
      { id: 'customers-pending', labelKey: 'customersPending', path: `${P}customers/pending/`, badge: 'pending_customers' },
      { id: 'customers-inactive', labelKey: 'customersInactive', path: `${P}customers/inactive/` },
      { id: 'customers-add-company-user', labelKey: 'addCompanyUser', path: `${P}customers/user/create/` },
      { id: 'customers-business-sector', labelKey: 'addBusinessSector', path: `${P}customers/business-sector/` },
      { id: 'customers-department', labelKey: 'department', path: `${P}customer/department/` },
    ],
  },
  { id: 'sales-persons', labelKey: 'salesPersons', path: `${P}salespersons/`, icon: <UserOutlined /> },
  {
    id: 'statistics',
    labelKey: 'statistics',
    icon: <BarChartOutlined />,
    children: [
      { id: 'statistics-account', labelKey: 'statisticsAccount', path: `${P}statistics/account/` },
      { id: 'statistics-customer', labelKey: 'statisticsCustomer', path: `${P}statistics/customer/` },
      { id: 'statistics-financial', labelKey: 'statisticsFinancial', path: `${P}statistics/finance/` },
      { id: 'statistics-activity', labelKey: 'statisticsActivity', path: `${P}statistics/activity/` },
      { id: 'statistics-legal', labelKey: 'statisticsLegal', path: `${P}statistics/legal/` },
    ],
  },
  { id: 'freja-academy', labelKey: 'frejaAcademy', path: `${P}freja-academy/`, icon: <PlayCircleOutlined /> },
  {
    id: 'settings',
    labelKey: 'settings',
    icon: <SettingOutlined />,
    children: [
      { id: 'settings-packages', labelKey: 'packages', path: `${P}settings/packages/` },
      { id: 'settings-service-plans', labelKey: 'servicePlans', path: `${P}settings/service-plans/` },
    ],
  },
];

export const adminModule: RoleModule = { role: 'admin', prefix: P, routes, menu };

export default function AdminApp() {
  return <RoleApp module={adminModule} />;
}
