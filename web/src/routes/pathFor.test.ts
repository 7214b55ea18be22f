import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../auth/roles';
import { CATALOGUE, type RouteId } from './catalogue';
import { hasRoute, pathFor, routeOf } from './pathFor';

/** Sample values for the path parameters. */
const SAMPLE: Record<string, string> = {
  id: '7',
  case_uid: 'c1',
  customer_uid: 'cu1',
  profile_uid: 'p1',
  contact_id: 'k1',
  lawyer_uid: 'l1',
  salesPerson_id: 's1',
  department_id: 'd1',
  uid_envelope: 'e1',
};

/**
 * Every route of every role, as spec §2 gives it (with SAMPLE parameters),
 * written the way the app links it: the case screens without a trailing
 * slash, everything else with one.
 */
const EXPECTED: Record<Role, Partial<Record<RouteId, string>>> = {
  admin: {
    dashboard: '/admin/',
    changePassword: '/admin/change-password/',
    update2fa: '/admin/update-2fa/',
    frejaAcademy: '/admin/freja-academy/',
    interest: '/admin/interest/',
    cases: '/admin/cases/',
    myCases: '/admin/cases/my-cases/',
    pendingCases: '/admin/cases/pending/',
    availableCases: '/admin/cases/available/',
    closedCases: '/admin/cases/closed/',
    caseDetails: '/admin/cases/details/7',
    caseHistory: '/admin/cases/history/7',
    caseCreate: '/admin/case/create',
    caseEdit: '/admin/case/update/c1/',
    caseHourUpdate: '/admin/cases/case-hour/update/7',
    additionalHourUpdate: '/admin/cases/additional_hour/update/7',
    caseHistoryAdditional: '/admin/cases/history-additional/7',
    customersActive: '/admin/customers/',
    customersPending: '/admin/customers/pending/',
    customersInactive: '/admin/customers/inactive/',
    customerDetails: '/admin/customers/details/cu1/',
    customerCreate: '/admin/customer/create/',
    customerUpdate: '/admin/customer/update/p1/',
    customerManagePackage: '/admin/customer/manage/package/cu1/',
    inkassoHandOvers: '/admin/customers/inkasso/',
    dataRequests: '/admin/customers/data-requests/',
    businessSectors: '/admin/customers/business-sector/',
    businessSectorCreate: '/admin/customers/business-sector/create/',
    businessSectorUpdate: '/admin/customers/business-sector/update/7/',
    departments: '/admin/customer/department/',
    departmentCreate: '/admin/customer/department/create/',
    departmentEdit: '/admin/customer/department/edit/d1/',
    departmentConnect: '/admin/customer/department/connect/cu1/',
    contactCreate: '/admin/customers/user/create/',
    contactEdit: '/admin/customers/user/update/k1/',
    lawyers: '/admin/lawyers/',
    lawyersExternal: '/admin/lawyers/external/',
    lawyerCreate: '/admin/lawyer/create/',
    lawyerUpdate: '/admin/lawyer/update/l1/',
    customerUsers: '/admin/customers/users/cu1/',
    salesPersons: '/admin/salespersons/',
    salesPersonCreate: '/admin/salesperson/create/',
    salesPersonUpdate: '/admin/salesperson/update/s1/',
    statisticsAccount: '/admin/statistics/account/',
    statisticsCustomer: '/admin/statistics/customer/',
    statisticsFinance: '/admin/statistics/finance/',
    statisticsActivity: '/admin/statistics/activity/',
    statisticsLegal: '/admin/statistics/legal/',
    knowledgeSectors: '/admin/settings/knowledge-sectors/',
    caseTypes: '/admin/settings/case-types/',
    packages: '/admin/settings/packages/',
    packageCreate: '/admin/settings/packages/create/',
    servicePlans: '/admin/settings/service-plans/',
    servicePlanCreate: '/admin/settings/service-plans/create/',
    support: '/admin/settings/support/',
    legalTexts: '/admin/settings/terms/',
    templateFiles: '/admin/settings/documents/',
    audit: '/admin/settings/audit/',
  },
  lawyer: {
    dashboard: '/lawyer/',
    profile: '/lawyer/profile/',
    changePassword: '/lawyer/change-password/',
    update2fa: '/lawyer/update-2fa/',
    notifications: '/lawyer/notifications/',
    messages: '/lawyer/messages/',
    lawyerRatings: '/lawyer/ratings/',
    videoMeeting: '/lawyer/video-meetings/',
    frejaAcademy: '/lawyer/freja-academy/',
    interest: '/lawyer/interest/',
    cases: '/lawyer/cases/',
    pendingCases: '/lawyer/cases/pending/',
    availableCases: '/lawyer/cases/available/',
    closedCases: '/lawyer/cases/closed/',
    caseDetails: '/lawyer/cases/details/7',
    caseHistory: '/lawyer/cases/history/7',
    caseCreate: '/lawyer/cases/create',
    caseEdit: '/lawyer/cases/update/c1',
    caseHourUpdate: '/lawyer/cases/case-hour/update/7',
    additionalHourUpdate: '/lawyer/cases/additional_hour/update/7',
    caseHistoryAdditional: '/lawyer/cases/history-additional/7',
    customersActive: '/lawyer/customers/',
    customersInactive: '/lawyer/customers/inactive/',
    statisticsCustomer: '/lawyer/statistics/customer/',
    statisticsLegal: '/lawyer/statistics/legal/',
  },
  sales: {
    dashboard: '/sales/',
    profile: '/sales/profile/',
    changePassword: '/sales/change-password/',
    update2fa: '/sales/update-2fa/',
    frejaAcademy: '/sales/freja-academy/',
    cases: '/sales/cases/',
    availableCases: '/sales/cases/available/',
    draftCases: '/sales/cases/draft/',
    closedCases: '/sales/cases/closed/',
    caseDetails: '/sales/cases/details/7',
    caseHistory: '/sales/cases/history/7',
    caseCreate: '/sales/case/create',
    caseEdit: '/sales/case/update/c1/',
    customersAll: '/sales/customers/',
    customersActive: '/sales/customers/active/',
    customersInactive: '/sales/customers/inactive/',
    customerCreate: '/sales/customer/create/',
    customerUpdate: '/sales/customer/update/p1/',
    customerManagePackage: '/sales/customer/manage/package/cu1/',
    contactCreate: '/sales/customers/user/create/',
    contactEdit: '/sales/customers/user/update/k1/',
    customerUsers: '/sales/customers/users/cu1/',
    statisticsAccount: '/sales/statistics/account/',
    statisticsCustomer: '/sales/statistics/customer/',
  },
  customer: {
    dashboard: '/user/',
    profile: '/user/profile/',
    ownAudit: '/user/access-log/',
    myData: '/user/my-data/',
    changePassword: '/user/change-password/',
    update2fa: '/user/update-2fa/',
    notifications: '/user/notifications/',
    messages: '/user/messages/',
    frejaAcademy: '/user/academy/',
    cases: '/user/cases/',
    draftCases: '/user/cases/draft/',
    closedCases: '/user/cases/closed/',
    caseDetails: '/user/cases/details/7',
    caseHistory: '/user/cases/history/7',
    caseCreate: '/user/cases/create',
    caseEdit: '/user/cases/edit/c1',
    contactList: '/user/users/',
    contactCreate: '/user/users/create/',
    contactEdit: '/user/users/edit/k1/',
    statisticsActivity: '/user/statistics/activity/',
    documents: '/user/documents/',
    support: '/user/support/',
    statisticsSupport: '/user/statistics/support/',
    videoMeeting: '/user/services/video-meeting/',
    contractSign: '/user/services/contract-sign/',
    contractSignCreate: '/user/services/contract-sign/create/',
    contractSignUpdate: '/user/services/contract-sign/update/e1/',
    creditCheck: '/user/services/credit-check/',
    inkasso: '/user/services/inkasso/',
    contractCheck: '/user/services/contract-check/',
  },
  customerContact: {
    dashboard: '/customer_contact/',
    profile: '/customer_contact/profile/',
    changePassword: '/customer_contact/change-password/',
    update2fa: '/customer_contact/update-2fa/',
    notifications: '/customer_contact/notifications/',
    messages: '/customer_contact/messages/',
    frejaAcademy: '/customer_contact/freja-academy/',
    cases: '/customer_contact/cases/',
    draftCases: '/customer_contact/cases/draft/',
    closedCases: '/customer_contact/cases/closed/',
    caseDetails: '/customer_contact/cases/details/7',
    caseHistory: '/customer_contact/cases/history/7',
    caseCreate: '/customer_contact/cases/create',
    caseEdit: '/customer_contact/cases/edit/c1',
    contactList: '/customer_contact/users/',
    contactCreate: '/customer_contact/users/create/',
    contactEdit: '/customer_contact/users/edit/k1/',
    statisticsActivity: '/customer_contact/statistics/activity/',
    documents: '/customer_contact/documents/',
    support: '/customer_contact/support/',
    videoMeeting: '/customer_contact/services/video-meeting/',
    contractSign: '/customer_contact/services/contract-sign/',
    contractSignCreate: '/customer_contact/services/contract-sign/create/',
    contractSignUpdate: '/customer_contact/services/contract-sign/update/e1/',
    creditCheck: '/customer_contact/services/credit-check/',
    inkasso: '/customer_contact/services/incasso/',
    contractCheck: '/customer_contact/services/kontracto/',
  },
};

const ALL_IDS = Object.keys(CATALOGUE) as RouteId[];

/** SAMPLE values for the parameters of the role's path of `id`. */
function sampleParams(role: Role, id: RouteId): Record<string, string> {
  const names = [...(routeOf(role, id)?.path ?? '').matchAll(/:(\w+)/g)].map((m) => m[1]);
  return Object.fromEntries(names.map((n) => [n, SAMPLE[n]]));
}

describe.each(ROLES)('pathFor(%s, id)', (role) => {
  it('resolves every route id of the role to the path of spec §2', () => {
    const got = Object.fromEntries(ALL_IDS.filter((id) => hasRoute(role, id)).map((id) => [id, pathFor(role, id, sampleParams(role, id))]));
    expect(got).toEqual(EXPECTED[role]);
  });

  it('throws for an id the role does not have (ask hasRoute first)', () => {
    for (const id of ALL_IDS.filter((i) => !(i in EXPECTED[role]))) {
      expect(hasRoute(role, id), id).toBe(false);
      expect(() => pathFor(role, id, sampleParams(role, id)), id).toThrow(/has no route/);
    }
  });
});

describe('pathFor parameters', () => {
  it('encodes parameters and appends the query', () => {
    expect(pathFor('lawyer', 'caseHourUpdate', { id: 'a/b' }, { case: 'c 1' })).toBe('/lawyer/cases/case-hour/update/a%2Fb?case=c%201');
    expect(pathFor('admin', 'interest', {}, { search: ' Söderberg AB' })).toBe('/admin/interest/?search=%20S%C3%B6derberg%20AB');
  });

  it('keeps an empty value (a page without its ?case=), refuses a missing or unknown one', () => {
    expect(pathFor('admin', 'caseDetails', { id: '' })).toBe('/admin/cases/details/');
    expect(() => pathFor('admin', 'caseDetails')).toThrow(/missing parameter 'id'/);
    expect(() => pathFor('admin', 'caseDetails', { id: '1', uid: '2' })).toThrow(/unknown parameter/);
  });

  it('gives the role its own title and, for contacts, the permission the route needs', () => {
    expect(routeOf('lawyer', 'cases')?.title).toBe('myCases');
    expect(routeOf('admin', 'caseEdit')?.title).toBe('caseUpdate');
    expect(routeOf('customer', 'caseEdit')?.title).toBe('caseEdit');
    expect(routeOf('customerContact', 'caseCreate')?.contactNeeds).toBe('add_case');
    expect(routeOf('customer', 'caseCreate')?.contactNeeds).toBeUndefined();
  });
});
