import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';
import { purchasedService } from '../subscriptions/fixtures';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests, resetClientState } = await import('../../test/renderApp');
const { toInput, toFormValues } = await import('./CustomerForm');
const { closeCustomerDetails } = await import('../../store/customerDetails');

type Rendered = import('../../test/renderApp').Rendered;
const admin = { email: 'a@example.com', id: 1, is_staff: true, full_name: 'Ada' };
const externalLawyer = { email: 'l@example.com', id: 2, user_type: 1, user_sub_type: 'external', full_name: 'Lo' };
const internalLawyer = { ...externalLawyer, user_sub_type: 'internal' };
const page = pageTests();

const address = { address_1: 'Storgatan 1', address_2: '', city: 'Stockholm', post_code: '11122', country: 1 };
const customer = (over: Record<string, unknown> = {}) => ({
  uid: 'c1',
  customer_type: 'Company',
  company_name: 'Söderberg & Partners AB',
  company_registration_number: '556677-1234',
  sector: { id: '2', name: 'Financial' },
  phone: '0701234567',
  state: 'active',
  approved_at: null,
  activated_at: null,
  email: 'sven@example.com',
  first_name: 'Sven',
  last_name: 'Söderberg',
  created_at: '2026-11-23T10:00:00Z',
  profile: address,
  same_invoice_address: true,
  invoice_address: address,
  account_manager_uid: 's1',
  invoice_by: 'email',
  department_id: null,
  hourly_rate_ore: 125050,
  knowledge_sectors: [],
  company_size: null,
  image: 'not set',
  active: true,
  account_manager: { uid: 's1', first_name: 'Sara', last_name: 'Säljare' },
  department: null,
  knowledge_sector_names: [],
  ...over,
});
const subscription = purchasedService();

function render(path: string, user: Record<string, unknown>, details = customer()) {
  return page.render(path, user, {
    'GET /customer/list/': () => ({ status: 200, body: { results: [details], next: null } }),
    'GET /customer/details/c1/': () => ({ status: 200, body: details }),
    'GET /customer/c1/': () => ({
      status: 200,
      body: { purchased_services: [subscription], bisnode_account_active: false, bisnode_account: null },
    }),
  });
}

const doc = (id: string) => document.querySelector(`[data-testid="${id}"]`);

async function openModal(r: Rendered) {
  await r.waitFor(() => r.$('customer-name-sven@example.com'), 'list row');
  await r.click('customer-name-sven@example.com');
  await r.waitFor(() => doc('customer-details'), 'modal contents');
}

describe('customer details modal', { timeout: 180_000 }, () => {
  afterEach(() => {
    act(() => closeCustomerDetails());
  });

  it('shows the customer with subscriptions and "Same as visiting address" (admin)', async () => {
    const r = await render('/admin/customers/', admin);
    await openModal(r);
    await r.waitFor(() => doc('sub-name-11'), 'subscriptions table');
    expect(doc('customer-details-avatar')?.textContent).toBe('S');
    expect(doc('customer-details-name')?.textContent).toBe('Sven Söderberg');
    expect(doc('customer-details-company')?.textContent).toContain('Söderberg & Partners AB');
    expect(doc('customer-details-manager')?.textContent).toBe('Sara Säljare');
    expect(doc('customer-details-regno')?.textContent).toBe('556677-1234');
    expect(doc('customer-details-visiting')?.textContent).toBe('Storgatan 1, 11122, Stockholm, Sweden');
    expect(doc('customer-details-invoice')?.textContent).toBe('Same as visiting address');
    const modal = document.querySelector('.ant-modal') as HTMLElement | null;
    expect(modal?.style.width).toBe('800px');
  });

  it('a separate invoice address is formatted; individuals have no company section', async () => {
    const r = await render(
      '/admin/customers/',
      admin,
      customer({
        customer_type: 'Individual',
        company_name: null,
        same_invoice_address: false,
        invoice_address: { address_1: 'Box 12', address_2: '', city: 'Solna', post_code: '17100', country: 1 },
      }),
    );
    await openModal(r);
    expect(doc('customer-details-invoice')?.textContent).toBe('Box 12, 17100, Solna, Sweden');
    expect(doc('customer-details-company-section')).toBeNull();
    expect(doc('customer-details-company')?.textContent).toContain('Individual');
  });

  it('external lawyers do not see subscriptions, internal lawyers do', async () => {
    let r = await render('/lawyer/customers/', externalLawyer);
    await openModal(r);
    // Give the subscriptions call time to land: the table must still not show.
    await r.waitFor(() => fake.calls.some((c) => c.path === '/customer/c1/'), 'services fetched');
    await new Promise((res) => setTimeout(res, 100));
    expect(doc('sub-name-11')).toBeNull();
    expect(r.$('edit-sven@example.com')).toBeNull();
    expect(r.$('customer-create-link')).toBeNull();
    act(() => closeCustomerDetails());
    await r.unmount();
    resetClientState();
    r = await render('/lawyer/customers/', internalLawyer);
    await openModal(r);
    await r.waitFor(() => doc('sub-name-11'), 'internal lawyer sees subscriptions');
  });
});

describe('customer form', { timeout: 180_000 }, () => {
  function catalogue() {
    fake.routes.set('GET /business-sector/', () => ({ status: 200, body: [{ id: '2', name: 'Financial' }] }));
    fake.routes.set('GET /account_manager/dropdown/list/', () => ({ status: 200, body: [{ uid: 's1', first_name: 'Sara', last_name: 'Säljare', email: 's@x.se' }] }));
    fake.routes.set('GET /customer/department/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /knowledge/sector/list/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /company-size/list/', () => ({ status: 200, body: [{ value: '1', label: '0-1 MSEK' }] }));
  }

  it("'same as visiting address' hides the invoice address; the client rules stop an empty form", async () => {
    catalogue();
    const r = await render('/admin/customer/create/', admin);
    await r.waitFor(() => r.$('customer-form'), 'form');
    expect(r.$('customer-invoice-address')).toBeNull();
    expect(r.$('customer-company-name')).not.toBeNull();
    await act(async () => {
      (r.$('customer-same-invoice')?.querySelector('input') ?? (r.$('customer-same-invoice') as HTMLInputElement)).click();
    });
    await r.waitFor(() => r.$('customer-invoice-address'), 'invoice address shown');
    await act(async () => {
      (page.ui!.container.querySelector('input[type="radio"][value="Individual"]') as HTMLInputElement).click();
    });
    await r.waitFor(() => !r.$('customer-company-name'), 'company fields hidden for individuals');
    await r.click('customer-submit');
    await r.waitFor(() => page.ui!.container.textContent?.includes('Address line, city, country and zip are required.'), 'address rule');
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('update fills the form and puts server errors on nested fields', async () => {
    catalogue();
    fake.routes.set('PUT /customer/update/c1/', () => ({
      status: 400,
      body: { status: 400, message: 'validation_failed', errors: { 'profile.city': ['address_required'], email: ['email_exists'] } },
    }));
    const r = await render('/admin/customer/update/c1/', admin);
    await r.waitFor(() => (r.$('customer-first-name') as HTMLInputElement | null)?.value === 'Sven', 'form filled');
    await r.click('customer-submit');
    await r.waitFor(() => page.ui!.container.textContent?.includes('E-mail already exists.'), 'email error');
    const put = fake.calls.find((c) => c.method === 'PUT');
    expect(put?.options?.body).toMatchObject({
      customer_type: 'Company',
      company_registration_number: '556677-1234',
      sector: '2',
      hourly_rate: 1250.5,
      account_manager: 's1',
      same_invoice_address: true,
    });
    expect(page.ui!.container.textContent).toContain('Address line, city, country and zip are required.');
  });

  it('maps stored values and drops company fields for individuals', () => {
    const v = toFormValues(customer() as never);
    expect(v.hourly_rate).toBe(1250.5);
    const input = toInput({ ...v, customer_type: 'Individual', same_invoice_address: true });
    expect(input.company_name).toBe('');
    expect(input.company_registration_number).toBe('');
    expect(input.invoice_address).toBeUndefined();
  });
});
