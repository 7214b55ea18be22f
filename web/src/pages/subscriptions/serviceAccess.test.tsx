import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const session = await import('../../store/session');
const { refusalOf } = await import('./ServiceGate');

const customer = { email: 'c@example.com', id: 7, uid: 'cust-1', is_staff: false, user_type: 3, full_name: 'Cee' };
const page = pageTests();

function serviceRow(serviceId: number) {
  return { id: 1, service: { id: serviceId, name: 'x' }, expired: false, status: 'Active' };
}

function open(path: string, services: { rows: unknown[]; bisnode?: boolean }) {
  return page.render(path, customer, {
    'GET /customer/cust-1/': () => ({
      status: 200,
      body: { purchased_services: services.rows, bisnode_account_active: !!services.bisnode, bisnode_account: null },
    }),
  });
}

describe('service access (spec §5)', { timeout: 180_000 }, () => {
  it('loads customer/{uid}/ into the persisted store and shows the promotion without the service', async () => {
    const { $, waitFor } = await open('/user/services/inkasso/', { rows: [] });
    await waitFor(() => $('service-promotion'), 'promotion');
    expect(fake.calls.some((c) => c.path === '/customer/cust-1/')).toBe(true);
    expect(session.getState().services.purchased_services).toEqual([]);
  });

  it('shows the service page once the service is purchased', async () => {
    fake.routes.set('GET /inkasso/prospect/', () => ({ status: 200, body: null }));
    const { $, waitFor } = await open('/user/services/inkasso/', { rows: [serviceRow(4)] });
    await waitFor(() => $('inkasso-page'), 'service page');
    expect($('page-placeholder')).toBeNull();
    expect($('service-promotion')).toBeNull();
  });

  it('credit check also needs the active credit-information account: the screen names it and who switches it on', async () => {
    const { $, waitFor, container } = await open('/user/services/credit-check/', { rows: [serviceRow(3)], bisnode: false });
    await waitFor(() => $('service-refused'), 'refusal');
    expect($('service-refused')?.getAttribute('data-refusal')).toBe('credit_account_inactive');
    // Not "no subscription": the customer has the plan.
    expect($('service-promotion')).toBeNull();
    expect(container.textContent).toContain('The credit-information account is not switched on');
    expect(container.textContent).toContain("The firm's administrator or your account manager switches it on");
  });

  it('names each refusal by its reason: no plan, the account, a contact\'s missing permission', () => {
    const contact = { user_type: 4, permissions: ['view_inkasso'] };
    const rows = [serviceRow(3)] as never;
    expect(refusalOf({ purchased_services: [] }, 3, { needsCreditAccount: true, permission: 'view_bisnode' }, null)).toBe('service_not_purchased');
    expect(refusalOf({ purchased_services: rows, bisnode_account_active: false }, 3, { needsCreditAccount: true }, null)).toBe('credit_account_inactive');
    expect(refusalOf({ purchased_services: rows, bisnode_account_active: true }, 3, { needsCreditAccount: true, permission: 'view_bisnode' }, contact)).toBe(
      'service_permission_missing',
    );
    expect(refusalOf({ purchased_services: rows, bisnode_account_active: true }, 3, { needsCreditAccount: true, permission: 'view_bisnode' }, null)).toBeNull();
  });

  it('contract check is always shown with its labels', async () => {
    fake.routes.set('GET /services/kontracto/', (c) => ({ status: 200, body: { url: `https://check.example/?lang=${c.options?.queryParams?.lang}` } }));
    const { $, waitFor, container } = await open('/user/services/contract-check/', { rows: [] });
    await waitFor(() => $('contract-check-page') && $('contract-check-link')?.getAttribute('href'), 'contract check with its link');
    expect($('contract-check-link')?.getAttribute('href')).toBe('https://check.example/?lang=en');
    expect(container.textContent).toContain('Go to contract check');
    expect(container.textContent).toContain('Contract bank information');
    expect($('contract-check-link')?.getAttribute('target')).toBe('_blank');
    // What the service is, and no contact named when none is configured.
    expect($('contract-check-about')?.textContent).toContain('Kontrakto');
    expect($('contract-check-phone')).toBeNull();
  });

  it('contract check names the configured phone number and mailbox', async () => {
    fake.routes.set('GET /services/kontracto/', () => ({ status: 200, body: { url: 'https://check.example/', phone: '08-123 45 67', email: 'avtal@example.com' } }));
    const { $, waitFor } = await open('/user/services/contract-check/', { rows: [] });
    const phone = await waitFor(() => $('contract-check-phone'), 'the phone number');
    expect(phone.textContent).toContain('08-123 45 67');
    expect(phone.querySelector('a')?.getAttribute('href')).toBe('tel:081234567');
    expect($('contract-check-email')?.querySelector('a')?.getAttribute('href')).toBe('mailto:avtal@example.com');
  });
});
