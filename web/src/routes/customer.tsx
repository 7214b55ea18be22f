import {
  AppstoreOutlined,
  BarChartOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  PlayCircleOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import RoleApp from '../layout/RoleApp';
import ChangePassword from '../pages/account/ChangePassword';
import TwoFactorSettings from '../pages/account/TwoFactorSettings';
import type { MenuDef, RoleModule, RouteDef } from './types';
import { lazy, type ComponentType } from 'react';
import { useLoadCustomerServices } from '../pages/subscriptions/customerServices';
const CaseList = lazy(() => import('../pages/cases/CaseList'));
const CaseDetails = lazy(() => import('../pages/cases/CaseDetails'));
const CaseForm = lazy(() => import('../pages/cases/CaseForm'));
const CaseHistory = lazy(() => import('../pages/cases/CaseHistory'));

const lazyNamed = <K extends string>(load: () => Promise<Record<K, ComponentType<{ titleKey: string }>>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));
const gate = () => import('../pages/subscriptions/ServiceGate');
const CustomerHome = lazy(() => import('../pages/subscriptions/CustomerHome'));
const CreditCheckRoute = lazyNamed(gate, 'CreditCheckRoute');
const InkassoRoute = lazyNamed(gate, 'InkassoRoute');
const ContractSignRoute = lazyNamed(gate, 'ContractSignRoute');
const VideoMeetingRoute = lazyNamed(gate, 'VideoMeetingRoute');
const ContractCheck = lazyNamed(gate, 'ContractCheck');

const Profile = lazy(() => import('../pages/profile/Profile'));
const ContactList = lazy(() => import('../pages/users/ContactList'));
const ContactCreate = lazy(() => import('../pages/users/ContactForm').then((m) => ({ default: m.ContactCreate })));
const ContactEdit = lazy(() => import('../pages/users/ContactForm').then((m) => ({ default: m.ContactEdit })));

const P = '/user/';

/** Customer routes (spec §2, /user/). */
export const routes: RouteDef[] = [
  { path: '', titleKey: 'dashboard', Component: CustomerHome },
  { path: 'profile', titleKey: 'profile', Component: Profile },
  { path: 'change-password', titleKey: 'changePassword', Component: ChangePassword },
  { path: 'update-2fa', titleKey: 'update2fa', Component: TwoFactorSettings },
  { path: 'academy', titleKey: 'frejaAcademy' },
  { path: 'notifications', titleKey: 'notifications' },
  { path: 'messages', titleKey: 'messages' },
  { path: 'cases', titleKey: 'cases', Component: CaseList },
  { path: 'cases/closed', titleKey: 'closedCases', Component: CaseList },
  { path: 'cases/draft', titleKey: 'draftCases', Component: CaseList },
  { path: 'cases/details/:id', titleKey: 'caseDetails', Component: CaseDetails },
  { path: 'cases/create', titleKey: 'caseCreate', Component: CaseForm },
  { path: 'cases/edit/:case_uid', titleKey: 'caseEdit', Component: CaseForm },
  { path: 'cases/history/:id', titleKey: 'caseHistory', Component: CaseHistory },
  { path: 'documents', titleKey: 'documents' },
  { path: 'statistics/activity', titleKey: 'statisticsActivity' },
  { path: 'services/video-meeting', titleKey: 'videoMeeting', Component: VideoMeetingRoute },
  { path: 'support', titleKey: 'support' },
  { path: 'users', titleKey: 'users', Component: ContactList },
  { path: 'users/create', titleKey: 'userCreate', Component: ContactCreate },
  { path: 'users/edit/:contact_id', titleKey: 'userEdit', Component: ContactEdit },
  { path: 'services/contract-sign', titleKey: 'contractSign', Component: ContractSignRoute },
  { path: 'services/contract-sign/create', titleKey: 'contractSignCreate', Component: ContractSignRoute },
  { path: 'services/contract-sign/update/:uid_envelope', titleKey: 'contractSignUpdate', Component: ContractSignRoute },
  { path: 'services/credit-check', titleKey: 'creditCheck', Component: CreditCheckRoute },
  { path: 'services/inkasso', titleKey: 'inkasso', Component: InkassoRoute },
  { path: 'services/contract-check', titleKey: 'contractCheck', Component: ContractCheck },
];

/**
 * Customer menu: Dashboard, Cases, Documents, Users, Services (Digital Contract
 * Sign, Credit Check, Inkasso, Avtalskollen), Statistics (Activity, Support),
 * Support, Freja Academy.
 */
export const menu: MenuDef[] = [
  { id: 'dashboard', labelKey: 'dashboard', path: P, icon: <DashboardOutlined /> },
  { id: 'cases', labelKey: 'cases', path: `${P}cases/`, icon: <FolderOpenOutlined /> },
  { id: 'documents', labelKey: 'documents', path: `${P}documents/`, icon: <FileTextOutlined /> },
  { id: 'users', labelKey: 'users', path: `${P}users/`, icon: <TeamOutlined /> },
  {
    id: 'services',
    labelKey: 'services',
    icon: <AppstoreOutlined />,
    children: [
      { id: 'services-contract-sign', labelKey: 'contractSign', path: `${P}services/contract-sign/` },
      { id: 'services-credit-check', labelKey: 'creditCheck', path: `${P}services/credit-check/` },
      { id: 'services-inkasso', labelKey: 'inkasso', path: `${P}services/inkasso/` },
      { id: 'services-contract-check', labelKey: 'contractCheck', path: `${P}services/contract-check/` },
    ],
  },
  {
    id: 'statistics',
    labelKey: 'statistics',
    icon: <BarChartOutlined />,
    children: [
      { id: 'statistics-activity', labelKey: 'statisticsActivity', path: `${P}statistics/activity/` },
      { id: 'statistics-support', labelKey: 'statisticsSupport', path: `${P}support/` },
    ],
  },
  { id: 'support', labelKey: 'support', path: `${P}support/`, icon: <CustomerServiceOutlined /> },
  { id: 'freja-academy', labelKey: 'frejaAcademy', path: `${P}academy/`, icon: <PlayCircleOutlined /> },
];

export const customerModule: RoleModule = { role: 'customer', prefix: P, routes, menu };

export default function CustomerApp() {
  // Spec §7: customer/{uid}/ is loaded on entering the customer area.
  useLoadCustomerServices();
  return <RoleApp module={customerModule} />;
}
