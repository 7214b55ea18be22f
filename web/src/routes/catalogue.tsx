/**
 * The route catalogue (spec §2): every page of the role areas once, with its
 * stable id, page, title, which roles have it (customer contacts: the
 * permission it needs, spec §5), its path and its place in each role's left
 * menu. Each role's route table, menu and links are derived from it
 * (roleTables.ts, pathFor.ts); a role gets its own path, title, page or menu
 * place only where spec §2 gives it one.
 *
 * Paths are relative to the role prefix (ROLE_PREFIX) and written the way
 * links show them: ':name' is a parameter, '' the role's dashboard, and a
 * trailing '/' is kept in links (the router ignores it).
 *
 * Pages are named by key, not imported: pages link with pathFor, which reads
 * this catalogue, so importing them here would make an import circle. The
 * role area resolves the keys lazily (app/pages.tsx).
 */
import {
  AppstoreOutlined,
  BankOutlined,
  BarChartOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  PlayCircleOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { ROLES, type Role } from '../auth/roles';
import type { Bubbles } from '../types/customers';
import type { Permission } from '../types/users';

/** The pages a route can show (app/pages.tsx loads each lazily). No page: a placeholder titled with the route's title. */
export type PageKey =
  | 'StatisticsPage'
  | 'Dashboard'
  | 'CustomerHome'
  | 'Profile'
  | 'ChangePassword'
  | 'TwoFactorSettings'
  | 'CaseList'
  | 'CaseDetails'
  | 'CaseForm'
  | 'CaseHistory'
  | 'HourUpdate'
  | 'AdditionalHourUpdate'
  | 'AdditionalHistory'
  | 'ActiveCustomers'
  | 'PendingCustomers'
  | 'InactiveCustomers'
  | 'LawyerActiveCustomers'
  | 'LawyerInactiveCustomers'
  | 'SalesAllCustomers'
  | 'SalesActiveCustomers'
  | 'SalesInactiveCustomers'
  | 'CustomerDetailsPage'
  | 'CustomerFormPage'
  | 'ManageCustomerPackages'
  | 'ContactList'
  | 'ContactCreate'
  | 'ContactEdit'
  | 'BusinessSectors'
  | 'BusinessSectorForm'
  | 'DepartmentsPage'
  | 'DepartmentFormPage'
  | 'DepartmentConnectPage'
  | 'InternalLawyers'
  | 'ExternalLawyers'
  | 'LawyerForm'
  | 'SalesPersons'
  | 'SalesPersonForm'
  | 'KnowledgeSectorsPage'
  | 'CaseTypesPage'
  | 'PackagesPage'
  | 'PackageCreatePage'
  | 'ServicePlansPage'
  | 'ServicePlanCreatePage'
  | 'ConflictResults'
  | 'ContractSignRoute'
  | 'CreditCheckRoute'
  | 'InkassoRoute'
  | 'InkassoHandOvers'
  | 'ContractCheck'
  | 'VideoMeetingRoute'
  | 'NotificationsPage'
  | 'MessagesPage'
  | 'LawyerRatingsPage'
  | 'Academy'
  | 'Documents'
  | 'Support'
  | 'SupportStatistics'
  | 'LegalTexts'
  | 'TemplateFiles'
  | 'AuditPage'
  | 'OwnAuditPage'
  | 'MyDataPage'
  | 'DataRequestsPage';

/** The groups of the left menu (a group shows when it has an entry for the role). */
export type MenuGroupId = 'customers' | 'statistics' | 'settings' | 'services';

/** A count from `bubbles/` shown as a badge (a group shows the sum of its entries'). */
export type BadgeKey = keyof Bubbles;

/** An entry's place in a role's left menu. */
export interface MenuPlacement {
  /** Stable: data-testid="menu-item-<id>" (the e2e tests use it). */
  id: string;
  /** Key in the `menu` namespace. */
  label: string;
  /** Position among its siblings: the top level, or inside its group. */
  order: number;
  /** Inside this group; none = the top level. */
  group?: MenuGroupId;
  /** Top-level entries only (entries inside a group show none). */
  icon?: ReactNode;
  badge?: BadgeKey;
  /** Customer contacts see the entry only with this permission (spec §5). */
  contactNeeds?: Permission;
  /**
   * The entry is selected on every page under this path (relative to the role
   * prefix), e.g. the admin's Cases entry, which opens the pending tab, on
   * every case page.
   */
  section?: string;
}

/** A role's menu place: the entry's look with an order (a bare number), or with changes. */
export type MenuUse = number | (Partial<MenuPlacement> & { order: number });

/** What a role has of an entry, and what differs for it (spec §2). */
export interface RoleUse {
  path?: string;
  title?: string;
  page?: PageKey;
  /** Its place(s) in the role's left menu; none = not in the menu. */
  menu?: MenuUse | MenuUse[];
}

export interface CatalogueEntry {
  /** Relative to the role prefix, as links show it. */
  path: string;
  /** Page title: key in the `routes` namespace. */
  title: string;
  page?: PageKey;
  /** Customer contacts need this permission (spec §5); without it they are sent to their dashboard. */
  contactNeeds?: Permission;
  /** How the entry looks in a menu (completed per role by `RoleUse.menu`). */
  menu?: Omit<MenuPlacement, 'order'>;
  /** The roles that have the route. */
  roles: Partial<Record<Role, RoleUse>>;
}

export interface MenuGroup {
  label: string;
  icon: ReactNode;
  /** The group's position in each role's top level. */
  order: Partial<Record<Role, number>>;
}

export const MENU_GROUPS: Record<MenuGroupId, MenuGroup> = {
  customers: { label: 'customers', icon: <TeamOutlined />, order: { admin: 4, sales: 3 } },
  statistics: { label: 'statistics', icon: <BarChartOutlined />, order: { admin: 6, lawyer: 4, sales: 4, customer: 6, customerContact: 6 } },
  settings: { label: 'settings', icon: <SettingOutlined />, order: { admin: 8 } },
  services: { label: 'services', icon: <AppstoreOutlined />, order: { customer: 5, customerContact: 5 } },
};

/** The roles given, each with nothing that differs. */
function only(...roles: Role[]): Partial<Record<Role, RoleUse>> {
  return Object.fromEntries(roles.map((r) => [r, {}]));
}

/**
 * Admin and the sales person reach the entry at their own `staff` path (and title), `others` as given, the customer
 * and its contacts as the entry says.
 */
function staffPath(staff: RoleUse, others: Partial<Record<Role, RoleUse>> = {}): Partial<Record<Role, RoleUse>> {
  return { admin: staff, sales: staff, ...others, customer: {}, customerContact: {} };
}

/**
 * An entry in the menu (at the top level or inside `menu.group`): its menu id is its path's words joined by '-'
 * (`settings/audit/` → `settings-audit`) and its label its title, unless `menu` says otherwise; `roles` gives each
 * role that has it its place in the menu (a number) or what differs for it.
 */
function inMenu(
  path: string,
  title: string,
  page: PageKey,
  roles: Partial<Record<Role, number | RoleUse>>,
  menu: Partial<Omit<MenuPlacement, 'order'>>,
  more: Pick<CatalogueEntry, 'contactNeeds'> = {},
): CatalogueEntry {
  const id = path.split('/').filter(Boolean).join('-');
  const uses = Object.fromEntries(Object.entries(roles).map(([role, use]) => [role, typeof use === 'number' ? { menu: use } : use]));
  return { path, title, page, ...more, menu: { id, label: title, ...menu }, roles: uses };
}

export const CATALOGUE = {
  // ── Every area ──────────────────────────────────────────────────────────
  dashboard: inMenu(
    '', 'dashboard', 'Dashboard',
    {
      admin: 1,
      lawyer: 1,
      sales: 1,
      customer: { page: 'CustomerHome', menu: 1 },
      customerContact: { page: 'CustomerHome', menu: 1 },
    },
    { icon: <DashboardOutlined />, id: 'dashboard' },
  ),
  profile: { path: 'profile/', title: 'profile', page: 'Profile', roles: only('lawyer', 'sales', 'customer', 'customerContact') },
  changePassword: { path: 'change-password/', title: 'changePassword', page: 'ChangePassword', roles: only(...ROLES) },
  update2fa: { path: 'update-2fa/', title: 'update2fa', page: 'TwoFactorSettings', roles: only(...ROLES) },
  notifications: { path: 'notifications/', title: 'notifications', page: 'NotificationsPage', roles: only('lawyer', 'customer', 'customerContact') },
  messages: { path: 'messages/', title: 'messages', page: 'MessagesPage', roles: only('lawyer', 'customer', 'customerContact') },
  /** The lawyer's own ratings (reached from the dashboard's ratings card). */
  lawyerRatings: { path: 'ratings/', title: 'myRatings', page: 'LawyerRatingsPage', roles: only('lawyer') },
  frejaAcademy: inMenu(
    'freja-academy/', 'frejaAcademy', 'Academy',
    {
      admin: 7,
      lawyer: 5,
      sales: 5,
      customer: { path: 'academy/', menu: 8 },
      customerContact: { menu: { order: 8, id: 'academy', label: 'academy' } },
    },
    { icon: <PlayCircleOutlined /> },
  ),
  interest: { path: 'interest/', title: 'interest', page: 'ConflictResults', roles: only('admin', 'lawyer') },

  // ── Cases ───────────────────────────────────────────────────────────────
  cases: inMenu(
    'cases/', 'cases', 'CaseList',
    {
      // The admin's Cases entry opens the pending tab (its badge counts those): see pendingCases.
      admin: { title: 'inProgressCases' },
      lawyer: { title: 'myCases', menu: 2 },
      sales: 2,
      customer: 2,
      customerContact: 2,
    },
    { icon: <FolderOpenOutlined /> },
  ),
  myCases: { path: 'cases/my-cases/', title: 'myCases', page: 'CaseList', roles: only('admin') },
  pendingCases: {
    path: 'cases/pending/',
    title: 'pendingCases',
    page: 'CaseList',
    roles: {
      admin: { menu: { order: 2, id: 'cases', label: 'cases', icon: <FolderOpenOutlined />, badge: 'pending_cases', section: 'cases/' } },
      lawyer: {},
    },
  },
  availableCases: { path: 'cases/available/', title: 'availableCases', page: 'CaseList', roles: only('admin', 'lawyer', 'sales') },
  draftCases: { path: 'cases/draft/', title: 'draftCases', page: 'CaseList', roles: only('sales', 'customer', 'customerContact') },
  closedCases: { path: 'cases/closed/', title: 'closedCases', page: 'CaseList', roles: only(...ROLES) },
  caseDetails: { path: 'cases/details/:id', title: 'caseDetails', page: 'CaseDetails', roles: only(...ROLES) },
  caseHistory: { path: 'cases/history/:id', title: 'caseHistory', page: 'CaseHistory', roles: only(...ROLES) },
  caseCreate: {
    path: 'cases/create',
    title: 'caseCreate',
    page: 'CaseForm',
    contactNeeds: 'add_case',
    roles: staffPath({ path: 'case/create' }, { lawyer: {} }),
  },
  caseEdit: {
    path: 'cases/edit/:case_uid',
    title: 'caseEdit',
    page: 'CaseForm',
    contactNeeds: 'add_case',
    roles: staffPath(
      { path: 'case/update/:case_uid/', title: 'caseUpdate' },
      { lawyer: { path: 'cases/update/:case_uid', title: 'caseUpdate' } },
    ),
  },
  /** The entry is the route parameter; the case travels as `?case=`. */
  caseHourUpdate: { path: 'cases/case-hour/update/:id', title: 'caseHourUpdate', page: 'HourUpdate', roles: only('admin', 'lawyer') },
  additionalHourUpdate: {
    path: 'cases/additional_hour/update/:id',
    title: 'additionalHourUpdate',
    page: 'AdditionalHourUpdate',
    roles: only('admin', 'lawyer'),
  },
  caseHistoryAdditional: {
    path: 'cases/history-additional/:id',
    title: 'caseHistoryAdditional',
    page: 'AdditionalHistory',
    roles: only('admin', 'lawyer'),
  },

  // ── Customers ───────────────────────────────────────────────────────────
  customersActive: {
    path: 'customers/',
    title: 'customersActive',
    roles: {
      admin: { page: 'ActiveCustomers', menu: { order: 1, group: 'customers', id: 'customers-active', label: 'customersActive' } },
      lawyer: { page: 'LawyerActiveCustomers', menu: { order: 3, id: 'customers', label: 'customers', icon: <TeamOutlined /> } },
      sales: {
        path: 'customers/active/',
        page: 'SalesActiveCustomers',
        menu: { order: 1, group: 'customers', id: 'customers-active', label: 'customersActive' },
      },
    },
  },
  customersAll: { path: 'customers/', title: 'customersAll', page: 'SalesAllCustomers', roles: only('sales') },
  customersPending: inMenu('customers/pending/', 'customersPending', 'PendingCustomers', { admin: 2 }, { group: 'customers', badge: 'pending_customers' }),
  customersInactive: {
    path: 'customers/inactive/',
    title: 'customersInactive',
    roles: {
      admin: { page: 'InactiveCustomers', menu: { order: 3, group: 'customers', id: 'customers-inactive', label: 'customersInactive' } },
      lawyer: { page: 'LawyerInactiveCustomers' },
      sales: { page: 'SalesInactiveCustomers' },
    },
  },
  customerDetails: { path: 'customers/details/:customer_uid/', title: 'customerDetails', page: 'CustomerDetailsPage', roles: only('admin') },
  customerCreate: { path: 'customer/create/', title: 'customerCreate', page: 'CustomerFormPage', roles: only('admin', 'sales') },
  customerUpdate: { path: 'customer/update/:profile_uid/', title: 'customerUpdate', page: 'CustomerFormPage', roles: only('admin', 'sales') },
  customerManagePackage: {
    path: 'customer/manage/package/:customer_uid/',
    title: 'customerManagePackage',
    page: 'ManageCustomerPackages',
    roles: only('admin', 'sales'),
  },
  /** The office's hand-overs to the collection agency (admin): Inkasso applications and claims to register there. */
  inkassoHandOvers: inMenu('customers/inkasso/', 'inkassoHandOvers', 'InkassoHandOvers', { admin: 7 }, { group: 'customers' }),
  /** Every customer's exports and requests to be forgotten (admin): approve or refuse erasures. */
  dataRequests: inMenu('customers/data-requests/', 'dataRequests', 'DataRequestsPage', { admin: 8 }, { group: 'customers' }),
  businessSectors: inMenu('customers/business-sector/', 'businessSectors', 'BusinessSectors', { admin: 5 }, { group: 'customers', label: 'addBusinessSector' }),
  businessSectorCreate: { path: 'customers/business-sector/create/', title: 'businessSectorCreate', page: 'BusinessSectorForm', roles: only('admin') },
  businessSectorUpdate: { path: 'customers/business-sector/update/:id/', title: 'businessSectorUpdate', page: 'BusinessSectorForm', roles: only('admin') },
  departments: inMenu('customer/department/', 'departments', 'DepartmentsPage', { admin: 6 }, { group: 'customers', id: 'customers-department', label: 'department' }),
  departmentCreate: { path: 'customer/department/create/', title: 'departmentCreate', page: 'DepartmentFormPage', roles: only('admin') },
  departmentEdit: { path: 'customer/department/edit/:department_id/', title: 'departmentEdit', page: 'DepartmentFormPage', roles: only('admin') },
  departmentConnect: {
    path: 'customer/department/connect/:customer_uid/',
    title: 'departmentConnect',
    page: 'DepartmentConnectPage',
    roles: only('admin'),
  },

  // ── Customer contacts (company users) ───────────────────────────────────
  contactList: inMenu('users/', 'users', 'ContactList', { customer: 4, customerContact: 4 }, { icon: <TeamOutlined /> }, { contactNeeds: 'view_contact' }),
  contactCreate: inMenu(
    'users/create/', 'userCreate', 'ContactCreate',
    {
      admin: { path: 'customers/user/create/', title: 'companyUserCreate', menu: 4 },
      sales: { path: 'customers/user/create/', title: 'companyUserCreate', menu: 2 },
      customer: {},
      customerContact: {},
    },
    { group: 'customers', id: 'customers-add-company-user', label: 'addCompanyUser' }, { contactNeeds: 'view_contact' },
  ),
  /** Staff: a customer's contacts (create, edit, activate/deactivate, resend link). */
  customerUsers: {
    path: 'customers/users/:customer_uid/',
    title: 'customerUsers',
    page: 'ContactList',
    roles: only('admin', 'sales'),
  },
  contactEdit: {
    path: 'users/edit/:contact_id/',
    title: 'userEdit',
    page: 'ContactEdit',
    contactNeeds: 'view_contact',
    roles: staffPath({ path: 'customers/user/update/:contact_id/', title: 'companyUserUpdate' }),
  },

  // ── Lawyers and sales persons ───────────────────────────────────────────
  lawyers: inMenu('lawyers/', 'lawyers', 'InternalLawyers', { admin: 3 }, { icon: <BankOutlined /> }),
  lawyersExternal: { path: 'lawyers/external/', title: 'lawyersExternal', page: 'ExternalLawyers', roles: only('admin') },
  lawyerCreate: { path: 'lawyer/create/', title: 'lawyerCreate', page: 'LawyerForm', roles: only('admin') },
  lawyerUpdate: { path: 'lawyer/update/:lawyer_uid/', title: 'lawyerUpdate', page: 'LawyerForm', roles: only('admin') },
  salesPersons: inMenu('salespersons/', 'salesPersons', 'SalesPersons', { admin: 5 }, { icon: <UserOutlined />, id: 'sales-persons' }),
  salesPersonCreate: { path: 'salesperson/create/', title: 'salesPersonCreate', page: 'SalesPersonForm', roles: only('admin') },
  salesPersonUpdate: { path: 'salesperson/update/:salesPerson_id/', title: 'salesPersonUpdate', page: 'SalesPersonForm', roles: only('admin') },

  // ── Statistics ───────────────────────────────────────────
  statisticsAccount: inMenu('statistics/account/', 'statisticsAccount', 'StatisticsPage', { admin: 1, sales: 1 }, { group: 'statistics' }),
  statisticsCustomer: inMenu('statistics/customer/', 'statisticsCustomer', 'StatisticsPage', { admin: 2, lawyer: 1, sales: 2 }, { group: 'statistics' }),
  statisticsFinance: inMenu('statistics/finance/', 'statisticsFinance', 'StatisticsPage', { admin: 3 }, { group: 'statistics', id: 'statistics-financial', label: 'statisticsFinancial' }),
  statisticsActivity: inMenu('statistics/activity/', 'statisticsActivity', 'StatisticsPage', { admin: 4, customer: 1, customerContact: 1 }, { group: 'statistics' }),
  statisticsLegal: inMenu('statistics/legal/', 'statisticsLegal', 'StatisticsPage', { admin: 5, lawyer: 2 }, { group: 'statistics' }),

  // ── Settings (admin) ────────────────────────────────────────────────────
  knowledgeSectors: inMenu('settings/knowledge-sectors/', 'knowledgeSectors', 'KnowledgeSectorsPage', { admin: 3 }, { group: 'settings' }),
  /** Hidden from the menu (spec §2). */
  caseTypes: { path: 'settings/case-types/', title: 'caseTypes', page: 'CaseTypesPage', roles: only('admin') },
  packages: inMenu('settings/packages/', 'packages', 'PackagesPage', { admin: 1 }, { group: 'settings' }),
  packageCreate: { path: 'settings/packages/create/', title: 'packageCreate', page: 'PackageCreatePage', roles: only('admin') },
  servicePlans: inMenu('settings/service-plans/', 'servicePlans', 'ServicePlansPage', { admin: 2 }, { group: 'settings' }),
  servicePlanCreate: { path: 'settings/service-plans/create/', title: 'servicePlanCreate', page: 'ServicePlanCreatePage', roles: only('admin') },

  // ── Customer areas: documents, support, services ────────────────────────
  documents: inMenu('documents/', 'documents', 'Documents', { customer: 3, customerContact: 3 }, { icon: <FileTextOutlined /> }),
  support: inMenu(
    'support/', 'support', 'Support',
    {
      customer: 7,
      customerContact: 7,
      // Admin answers and closes every ticket (Settings → Support tickets).
      admin: {
        path: 'settings/support/',
        title: 'supportTickets',
        menu: { order: 5, group: 'settings', id: 'settings-support', label: 'supportTickets' },
      },
    },
    { icon: <CustomerServiceOutlined /> },
  ),
  statisticsSupport: inMenu('statistics/support/', 'statisticsSupport', 'SupportStatistics', { customer: 2 }, { group: 'statistics' }),
  legalTexts: inMenu('settings/terms/', 'legalTexts', 'LegalTexts', { admin: 3 }, { group: 'settings', label: 'termsAndPrivacy' }),
  templateFiles: inMenu('settings/documents/', 'templateFiles', 'TemplateFiles', { admin: 4 }, { group: 'settings', label: 'publicDocuments' }),
  /** Who read or changed client data (admin; Settings → Audit trail). */
  audit: inMenu('settings/audit/', 'audit', 'AuditPage', { admin: 6 }, { group: 'settings' }),
  // The customer's own part of the trail (who at the firm opened its cases
  // and documents), from the user menu. Customer contacts do not have it:
  // none of their permissions (spec §3, §5) covers oversight of the whole
  // company's data (a contact without "view all cases" would learn of cases
  // it may not see), so it stays with the account holder, as the server's
  // ReadOwnAudit does.
  ownAudit: { path: 'access-log/', title: 'ownAudit', page: 'OwnAuditPage', roles: only('customer') },
  // The customer's data rights (export of everything about it), from the
  // user menu. The account holder's, as the server's ExportCustomerData:
  // a contact's permissions do not cover the whole company's data.
  myData: { path: 'my-data/', title: 'myData', page: 'MyDataPage', roles: only('customer') },
  // Spec §5 names no contact permission for video meetings, and shows a
  // contact's Services group only with one of the four service permissions:
  // so the contact has the route (reached from the dashboard's meetings
  // card) but no entry that would show the group without them. The lawyer's
  // offered times and booked meetings are the same route
  // in the lawyer area, a top-level entry.
  videoMeeting: inMenu(
    'services/video-meeting/', 'videoMeeting', 'VideoMeetingRoute',
    {
      customer: 5,
      customerContact: {},
      lawyer: { path: 'video-meetings/', menu: { order: 6, group: undefined, id: 'video-meetings', icon: <CustomerServiceOutlined /> } },
    },
    { group: 'services' },
  ),
  contractSign: {
    path: 'services/contract-sign/',
    title: 'contractSign',
    page: 'ContractSignRoute',
    contactNeeds: 'view_verify',
    menu: { id: 'services-contract-sign', label: 'contractSign', group: 'services' },
    roles: { customer: { menu: 1 }, customerContact: { menu: { order: 1, contactNeeds: 'view_verify' } } },
  },
  contractSignCreate: {
    path: 'services/contract-sign/create/',
    title: 'contractSignCreate',
    page: 'ContractSignRoute',
    contactNeeds: 'view_verify',
    roles: only('customer', 'customerContact'),
  },
  contractSignUpdate: {
    path: 'services/contract-sign/update/:uid_envelope/',
    title: 'contractSignUpdate',
    page: 'ContractSignRoute',
    contactNeeds: 'view_verify',
    roles: only('customer', 'customerContact'),
  },
  creditCheck: inMenu('services/credit-check/', 'creditCheck', 'CreditCheckRoute', { customer: 2, customerContact: 2 }, { group: 'services' }, { contactNeeds: 'view_bisnode' }),
  inkasso: inMenu(
    'services/inkasso/', 'inkasso', 'InkassoRoute',
    {
      customer: 3,
      customerContact: { path: 'services/incasso/', menu: { order: 3, contactNeeds: 'view_inkasso' } },
    },
    { group: 'services' }, { contactNeeds: 'view_inkasso' },
  ),
  contractCheck: {
    path: 'services/contract-check/',
    title: 'contractCheck',
    page: 'ContractCheck',
    // "Contract check always shown" (spec §5): no purchase and, unlike the
    // other services, no permission of its own; in the contact's menu it sits
    // in the Services group, shown while any service permission is held.
    menu: { id: 'services-contract-check', label: 'contractCheck', group: 'services' },
    roles: {
      customer: { menu: 4 },
      customerContact: { path: 'services/kontracto/', menu: { order: 4 } },
    },
  },
} satisfies Record<string, CatalogueEntry>;

/** A route's stable id: pathFor(role, id). */
export type RouteId = keyof typeof CATALOGUE;

/** The catalogue, typed for lookups by any id. */
export const ENTRIES: Readonly<Record<RouteId, CatalogueEntry>> = CATALOGUE;
