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
import { contactMenuVisibility, hasPermission } from '../auth/permissions';
import type { Permission } from '../types/users';
import { fetchPermissions } from '../api/users';
import { setPermissions } from '../store/session';
import type { MenuContext, MenuDef, RoleModule, RouteDef } from './types';
import { lazy, useEffect, type ComponentType } from 'react';
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

const P = '/customer_contact/';

/** Customer-contact routes (spec §2, /customer_contact/); permission rules from spec §5. */
export const routes: RouteDef[] = [
  { path: '', titleKey: 'dashboard', Component: CustomerHome },
  { path: 'cases', titleKey: 'cases', Component: CaseList },
  { path: 'cases/closed', titleKey: 'closedCases', Component: CaseList },
  { path: 'cases/draft', titleKey: 'draftCases', Component: CaseList },
  { path: 'cases/details/:id', titleKey: 'caseDetails', Component: CaseDetails },
  { path: 'cases/create', titleKey: 'caseCreate', Component: CaseForm, requires: 'add_case' },
  { path: 'cases/edit/:case_uid', titleKey: 'caseEdit', Component: CaseForm, requires: 'add_case' },
  { path: 'cases/history/:id', titleKey: 'caseHistory', Component: CaseHistory },
  { path: 'statistics/activity', titleKey: 'statisticsActivity' },
  { path: 'documents', titleKey: 'documents' },
  { path: 'services/contract-sign', titleKey: 'contractSign', Component: ContractSignRoute },
  { path: 'services/contract-sign/create', titleKey: 'contractSignCreate', Component: ContractSignRoute },
  { path: 'services/contract-sign/update/:uid_envelope', titleKey: 'contractSignUpdate', Component: ContractSignRoute },
  { path: 'services/credit-check', titleKey: 'creditCheck', requires: 'view_bisnode', Component: CreditCheckRoute },
  { path: 'services/video-meeting', titleKey: 'videoMeeting', Component: VideoMeetingRoute },
  { path: 'services/incasso', titleKey: 'inkasso', Component: InkassoRoute },
  { path: 'services/kontracto', titleKey: 'contractCheck', Component: ContractCheck },
  { path: 'support', titleKey: 'support' },
  { path: 'freja-academy', titleKey: 'frejaAcademy' },
  { path: 'profile', titleKey: 'profile', Component: Profile },
  { path: 'change-password', titleKey: 'changePassword', Component: ChangePassword },
  { path: 'update-2fa', titleKey: 'update2fa', Component: TwoFactorSettings },
  { path: 'notifications', titleKey: 'notifications' },
  { path: 'messages', titleKey: 'messages' },
  { path: 'users', titleKey: 'users', requires: 'view_contact', Component: ContactList },
  { path: 'users/create', titleKey: 'userCreate', requires: 'view_contact', Component: ContactCreate },
  { path: 'users/edit/:contact_id', titleKey: 'userEdit', requires: 'view_contact', Component: ContactEdit },
];

const holds = (p: Permission) => (ctx: MenuContext) => hasPermission(ctx.userType, ctx.permissions, p);

/** Dashboard, Cases, Documents, Statistics, Support, Academy, plus Users and Services (conditional, spec §5). */
export const menu: MenuDef[] = [
  { id: 'dashboard', labelKey: 'dashboard', path: P, icon: <DashboardOutlined /> },
  { id: 'cases', labelKey: 'cases', path: `${P}cases/`, icon: <FolderOpenOutlined /> },
  { id: 'documents', labelKey: 'documents', path: `${P}documents/`, icon: <FileTextOutlined /> },
  {
    id: 'users',
    labelKey: 'users',
    path: `${P}users/`,
    icon: <TeamOutlined />,
    visible: (ctx) => contactMenuVisibility(ctx.userType, ctx.permissions).users,
  },
  {
    id: 'services',
    labelKey: 'services',
    icon: <AppstoreOutlined />,
    visible: (ctx) => contactMenuVisibility(ctx.userType, ctx.permissions).services,
    children: [
      { id: 'services-contract-sign', labelKey: 'contractSign', path: `${P}services/contract-sign/`, visible: holds('view_verify') },
      { id: 'services-credit-check', labelKey: 'creditCheck', path: `${P}services/credit-check/`, visible: holds('view_bisnode') },
      { id: 'services-inkasso', labelKey: 'inkasso', path: `${P}services/incasso/`, visible: holds('view_inkasso') },
      { id: 'services-contract-check', labelKey: 'contractCheck', path: `${P}services/kontracto/`, visible: holds('view_kontracto') },
    ],
  },
  {
    id: 'statistics',
    labelKey: 'statistics',
    icon: <BarChartOutlined />,
    children: [{ id: 'statistics-activity', labelKey: 'statisticsActivity', path: `${P}statistics/activity/` }],
  },
  { id: 'support', labelKey: 'support', path: `${P}support/`, icon: <CustomerServiceOutlined /> },
  { id: 'academy', labelKey: 'academy', path: `${P}freja-academy/`, icon: <PlayCircleOutlined /> },
];

export const customerContactModule: RoleModule = { role: 'customerContact', prefix: P, routes, menu };

/**
 * Entering the contact area reloads the permission codes (they may have been
 * changed by the customer since sign-in); menus and guards read the stored list.
 */
export async function refreshPermissions(): Promise<void> {
  try {
    setPermissions(await fetchPermissions({ suppressError: true }));
  } catch {
    /* keep the stored list; a 401 has already signed the user out */
  }
}

export default function CustomerContactApp() {
  useEffect(() => {
    void refreshPermissions();
  }, []);
  // Spec §7: customer/{uid}/ is loaded on entering the contact area.
  useLoadCustomerServices();
  return <RoleApp module={customerContactModule} />;
}
