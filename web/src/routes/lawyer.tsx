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
const CaseHistory = lazy(() => import('../pages/cases/CaseHistory'));
const HourUpdate = lazy(() => import('../pages/cases/HourUpdate'));
const AdditionalHourUpdate = lazy(() => import('../pages/cases/AdditionalHourUpdate'));
const AdditionalHistory = lazy(() => import('../pages/cases/AdditionalHistory'));

const Profile = lazy(() => import('../pages/profile/Profile'));

const ConflictResults = lazy(() => import('../pages/conflict/ConflictResults'));
const customerList = () => import('../pages/customers/CustomerList');
const LawyerActiveCustomers = lazy(() => customerList().then((m) => ({ default: m.LawyerActiveCustomers })));
const LawyerInactiveCustomers = lazy(() => customerList().then((m) => ({ default: m.LawyerInactiveCustomers })));

const P = '/lawyer/';

/** Lawyer routes (spec §2, /lawyer/). */
export const routes: RouteDef[] = [
  { path: '', titleKey: 'dashboard', Component: Dashboard },
  { path: 'customers', titleKey: 'customersActive', Component: LawyerActiveCustomers },
  { path: 'customers/inactive', titleKey: 'customersInactive', Component: LawyerInactiveCustomers },
  { path: 'cases', titleKey: 'myCases', Component: CaseList },
  { path: 'cases/pending', titleKey: 'pendingCases', Component: CaseList },
  { path: 'cases/available', titleKey: 'availableCases', Component: CaseList },
  { path: 'cases/closed', titleKey: 'closedCases', Component: CaseList },
  { path: 'cases/details/:id', titleKey: 'caseDetails', Component: CaseDetails },
  { path: 'cases/history/:id', titleKey: 'caseHistory', Component: CaseHistory },
  { path: 'cases/history-additional/:id', titleKey: 'caseHistoryAdditional', Component: AdditionalHistory },
  { path: 'cases/create', titleKey: 'caseCreate', Component: CaseForm },
  { path: 'cases/update/:case_uid', titleKey: 'caseUpdate', Component: CaseForm },
  { path: 'cases/case-hour/update/:id', titleKey: 'caseHourUpdate', Component: HourUpdate },
  { path: 'cases/additional_hour/update/:id', titleKey: 'additionalHourUpdate', Component: AdditionalHourUpdate },
  { path: 'statistics/customer', titleKey: 'statisticsCustomer' },
  { path: 'statistics/legal', titleKey: 'statisticsLegal' },
  { path: 'interest', titleKey: 'interest', Component: ConflictResults },
  { path: 'profile', titleKey: 'profile', Component: Profile },
  { path: 'change-password', titleKey: 'changePassword', Component: ChangePassword },
  { path: 'update-2fa', titleKey: 'update2fa', Component: TwoFactorSettings },
  { path: 'freja-academy', titleKey: 'frejaAcademy' },
  { path: 'notifications', titleKey: 'notifications' },
  { path: 'messages', titleKey: 'messages' },
];

/** Lawyer menu: Dashboard, Cases, Customers, Statistics (Customer, Legal), Freja Academy. */
export const menu: MenuDef[] = [
  { id: 'dashboard', labelKey: 'dashboard', path: P, icon: <DashboardOutlined /> },
  { id: 'cases', labelKey: 'cases', path: `${P}cases/`, icon: <FolderOpenOutlined /> },
  { id: 'customers', labelKey: 'customers', path: `${P}customers/`, icon: <TeamOutlined /> },
  {
    id: 'statistics',
    labelKey: 'statistics',
    icon: <BarChartOutlined />,
    children: [
      { id: 'statistics-customer', labelKey: 'statisticsCustomer', path: `${P}statistics/customer/` },
      { id: 'statistics-legal', labelKey: 'statisticsLegal', path: `${P}statistics/legal/` },
    ],
  },
  { id: 'freja-academy', labelKey: 'frejaAcademy', path: `${P}freja-academy/`, icon: <PlayCircleOutlined /> },
];

export const lawyerModule: RoleModule = { role: 'lawyer', prefix: P, routes, menu };

export default function LawyerApp() {
  return <RoleApp module={lawyerModule} />;
}
