import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { resetBubbles } = await import('../../api/bubbles');

const warning = vi.fn();

const admin = { email: 'a@example.com', id: 1, is_staff: true, full_name: 'Ada' };
const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee' };

const pendingRow = {
  uid: 'u1',
  customer_type: 'Company',
  company_name: 'Kund AB',
  company_registration_number: '556677-1234',
  sector: { id: '1', name: 'Consumer goods' },
  phone: '0701234567',
  state: 'pending',
  approved_at: null,
  activated_at: null,
  email: 'kund@example.com',
  first_name: 'Karin',
  last_name: 'Kund',
  created_at: '2026-01-02T10:00:00Z',
};

const page = pageTests({ warning });
const render = (path: string, user: typeof admin | typeof customer | null = admin) => page.render(path, user);

describe('customer administration pages', { timeout: 180_000 }, () => {
  beforeEach(() => {
    resetBubbles();
  });

  it('admin menu shows the pending-customer badge from bubbles/; a customer never asks for it', async () => {
    fake.routes.set('GET /bubbles/', () => ({ status: 200, body: { pending_cases: 0, pending_customers: 3 } }));
    const { $, waitFor } = await render('/admin/');
    const badge = await waitFor(() => $('menu-badge-customers'), 'badge', 15_000);
    expect(badge.textContent).toContain('3');
    expect($('menu-badge-cases')).toBeNull();
    await page.ui!.unmount();

    fake.calls.length = 0;
    const second = await render('/user/', customer);
    await second.waitFor(() => second.$('side-menu'), 'menu');
    expect(fake.calls.some((c) => c.path === '/bubbles/')).toBe(false);
  });

  it('pending list: approve calls the API, then the row offers to resend the activation mail', async () => {
    fake.routes.set('GET /bubbles/', () => ({ status: 200, body: { pending_cases: 0, pending_customers: 1 } }));
    let approved = false;
    fake.routes.set('GET /customer/list/', (c) => {
      expect(c.options?.queryParams).toMatchObject({ status: 'pending' });
      return { status: 200, body: { results: [{ ...pendingRow, approved_at: approved ? '2026-01-03T10:00:00Z' : null }], next: null } };
    });
    fake.routes.set('POST /customer/approve/u1/', () => {
      approved = true;
      return { status: 200, body: { ...pendingRow, approved_at: '2026-01-03T10:00:00Z' } };
    });
    const { click, waitFor, $ } = await render('/admin/customers/pending/');
    await click('approve-kund@example.com');
    await waitFor(() => $('resend-kund@example.com'), 'resend button', 15_000);
    expect(fake.calls.some((c) => c.method === 'POST' && c.path === '/customer/approve/u1/')).toBe(true);
    expect(page.ui!.container.textContent).toContain('Kund AB');
  });

  it('an empty list shows the Empty placeholder', async () => {
    fake.routes.set('GET /bubbles/', () => ({ status: 200, body: { pending_cases: 0, pending_customers: 0 } }));
    fake.routes.set('GET /customer/list/', () => ({ status: 200, body: { results: [], next: null } }));
    const { waitFor } = await render('/admin/customers/inactive/');
    await waitFor(() => page.ui!.container.textContent?.includes('Empty'), 'Empty placeholder', 15_000);
  });

  it('business sector create posts the name and returns to the list', async () => {
    fake.routes.set('GET /bubbles/', () => ({ status: 200, body: { pending_cases: 0, pending_customers: 0 } }));
    fake.routes.set('GET /business-sector/', () => ({ status: 200, body: [{ id: '1', name: 'Media' }] }));
    fake.routes.set('POST /business-sector/create/', (c) => {
      expect(c.options?.body).toEqual({ name: 'Legal tech' });
      return { status: 201, body: { id: '11', name: 'Legal tech' } };
    });
    const { type, click, waitFor, path } = await render('/admin/customers/business-sector/create/');
    await type('sector-name', 'Legal tech');
    await click('sector-save');
    await waitFor(() => path() === '/admin/customers/business-sector/', 'back to the list', 15_000);
  });

  it('an activation link the server calls invalid shows the invalid URL screen at once', async () => {
    fake.routes.set('POST /customer/activation/check/', () => ({ status: 200, body: { valid: false } }));
    const { $, waitFor } = await render('/approve/customer?token=u1.deadbeef', null);
    const screen = await waitFor(() => $('invalid-url'), 'invalid-url', 15_000);
    expect(screen.textContent).toContain('The URL you are trying is invalid or expired');
  });
});
