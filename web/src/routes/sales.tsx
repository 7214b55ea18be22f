import { lazy } from 'react';
import { BarChartOutlined, DashboardOutlined, FolderOpenOutlined, PlayCircleOutlined, TeamOutlined } from '@ant-design/icons';
import RoleApp from '../layout/RoleApp';
import ChangePassword from '../pages/account/ChangePassword';
import TwoFactorSettings from '../pages/account/TwoFactorSettings';
import Dashboard from '../pages/Dashboard';
import type { MenuDef, RoleModule, RouteDef } from './types';
const CaseList = lazy(() => import('../pages/cases/CaseList'));
const CaseDetails = lazy(() => import('../pages/cases/CaseDetails'));
const CaseForm = lazy(() => import('../pages/cases/CaseForm'));

const ManageCustomerPackages = lazy(() => import('../pages/subscriptions/ManageCustomerPackages'));

const Profile = lazy(() => import('../pages/profile/Profile'));
const CustomerFormPage = lazy(() => import('../pages/customerAdmin/CustomerForm'));
const customerList = () => import('../pages/customers/CustomerList');
const SalesAllCustomers = lazy(() => customerList().then((m) => ({ default: m.SalesAllCustomers })));
const SalesActiveCustomers = lazy(() => customerList().then((m) => ({ default: m.SalesActiveCustomers })));
const SalesInactiveCustomers = lazy(() => customerList().then((m) => ({ default: m.SalesInactiveCustomers })));
const ContactCreate = lazy(() => import('../pages/users/ContactForm').then((m) => ({ default: m.ContactCreate })));
const ContactEdit = lazy(() => import('../pages/users/ContactForm').then((m) => ({ default: m.ContactEdit })));

const P = '/sales/';

/** Sales-person routes (spec §2, /sales/). */
export const routes: RouteDef[] = [
  { path: '', titleKey: 'dashboard', Component: Dashboard },
  { path: 'case/create', titleKey: 'caseCreate', Component: CaseForm },
  { path: 'case/update/:case_uid', titleKey: 'caseUpdate', Component: CaseForm },
  { path: 'cases', titleKey: 'cases', Component: CaseList },
  { path: 'cases/closed', titleKey: 'closedCases', Component: CaseList },
  { path: 'cases/draft', titleKey: 'draftCases', Component: CaseList },
  { path: 'cases/available', titleKey: 'availableCases', Component: CaseList },
  { path: 'cases/details/:id', titleKey: 'caseDetails', Component: CaseDetails },
  { path: 'customers', titleKey: 'customersAll', Component: SalesAllCustomers },
  { path: 'customers/active', titleKey: 'customersActive', Component: SalesActiveCustomers },
  { path: 'customers/inactive', titleKey: 'customersInactive', Component: SalesInactiveCustomers },
  { path: 'customer/create', titleKey: 'customerCreate', Component: CustomerFormPage },
  { path: 'customer/update/:profile_uid', titleKey: 'customerUpdate', Component: CustomerFormPage },
  { path: 'customer/manage/package/:profile_uid', titleKey: 'customerManagePackage', Component: ManageCustomerPackages },
  { path: 'customers/user/create', titleKey: 'companyUserCreate', Component: ContactCreate },
  { path: 'customers/user/update/:contact_id', titleKey: 'companyUserUpdate', Component: ContactEdit },
  { path: 'statistics/account', titleKey: 'statisticsAccount' },
  { path: 'statistics/customer', titleKey: 'statisticsCustomer' },
  { path: 'profile', titleKey: 'profile', Component: Profile },
  { path: 'change-password', titleKey: 'changePassword', Component: ChangePassword },
  { path: 'update-2fa', titleKey: 'update2fa', Component: TwoFactorSettings },
  { path: 'freja-academy', titleKey: 'frejaAcademy' },
];

/** Sales menu: Dashboard, Cases, Customers (Active, Add Company User), Statistics (Account, Customer), Freja Academy. */
export const menu: MenuDef[] = [
  { id: 'dashboard', labelKey: 'dashboard', path: P, icon: <DashboardOutlined /> },
  { id: 'cases', labelKey: 'cases', path: `${P}cases/`, icon: <FolderOpenOutlined /> },
  {
    id: 'customers',
    labelKey: 'customers',
    icon: <TeamOutlined />,
    children: [
      { id: 'customers-active', labelKey: 'customersActive', path: `${P}customers/active/` },
      { id: 'customers-add-company-user', labelKey: 'addCompanyUser', path: `${P}customers/user/create/` },
    ],
  },
  {
    id: 'statistics',
    labelKey: 'statistics',
    icon: <BarChartOutlined />,
    children: [
      { id: 'statistics-account', labelKey: 'statisticsAccount', path: `${P}statistics/account/` },
      { id: 'statistics-customer', labelKey: 'statisticsCustomer', path: `${P}statistics/customer/` },
    ],
  },
  { id: 'freja-academy', labelKey: 'frejaAcademy', path: `${P}freja-academy/`, icon: <PlayCircleOutlined /> },
];

export const salesModule: RoleModule = { role: 'sales', prefix: P, routes, menu };

export default function SalesApp() {
  return <RoleApp module={salesModule} />;
}
