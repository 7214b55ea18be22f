import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests, TEST_AUTH: auth } = await import('../../test/renderApp');
const session = await import('../../store/session');
const { completeLogin } = await import('../../auth/flow');

const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };
const contactUser = { email: 'k@example.com', id: 8, is_staff: false, user_type: 4, full_name: 'Kalle Kontakt', uid: 'k-1', customer_id: 'cust-1', image: 'not set' };
const admin = { email: 'a@example.com', id: 1, is_staff: true, full_name: 'Ada', uid: 'adm' };
const warning = vi.fn();

const row = (uid: string, email: string, active = true) => ({
  uid,
  id: 1,
  email,
  first_name: 'Greta',
  last_name: 'Garbo',
  full_name: 'Greta Garbo',
  phone: null,
  permissions: ['add_case'],
  active,
  customer_id: 'cust-1',
  created_at: '2026-11-23T10:00:00Z',
});

const page = pageTests({ warning });

/** Signed in as `user` with the `stored` permission codes; GET /permission/ answers `served` (the contact area reloads it). */
function render(path: string, user: object, opts: { stored?: string[]; served?: string[] } = {}) {
  session.setState({ permission: opts.stored ?? [] });
  return page.render(path, user, {
    'GET /permission/': () => ({ status: 200, body: { permissions: opts.served ?? opts.stored ?? [] } }),
  });
}

const menuIds = () => [...document.querySelectorAll('[data-testid^="menu-item-"]')].map((e) => e.getAttribute('data-testid'));

describe('contacts: guards, menus and screens', { timeout: 180_000 }, () => {
  it('a contact without view_contact typing users/ lands on /customer_contact/ and sees no Users entry', async () => {
    const { waitFor, path, $ } = await render('/customer_contact/users/', contactUser, { stored: ['add_case'] });
    await waitFor(() => path() === '/customer_contact/', 'redirect to the contact root');
    await waitFor(() => $('menu-item-dashboard'), 'menu');
    expect(menuIds()).not.toContain('menu-item-users');
    expect(menuIds()).not.toContain('menu-item-services');
    expect(fake.calls.some((c) => c.path === '/user/list/')).toBe(false);
  });

  it('create-case needs add_case and credit-check needs view_bisnode', async () => {
    const r = await render('/customer_contact/cases/create/', contactUser, { stored: ['view_verify'] });
    await r.waitFor(() => r.path() === '/customer_contact/', 'create-case redirect');
    await r.navigate('/customer_contact/services/credit-check/');
    await r.waitFor(() => r.path() === '/customer_contact/', 'credit-check redirect');
    // a held service shows the Services group (its entries: menuItems.test.ts)
    await r.waitFor(() => r.$('menu-item-services'), 'services menu');
    expect(menuIds()).not.toContain('menu-item-users');
  });

  it('entering the contact area reloads the permissions: a revoked view_contact hides Users at once', async () => {
    fake.routes.set('GET /user/list/', () => ({ status: 200, body: { results: [], next: null } }));
    const { waitFor, path, $ } = await render('/customer_contact/users/', contactUser, { stored: ['view_contact'], served: ['add_case'] });
    await waitFor(() => session.getState().permission.join() === 'add_case', 'permissions reloaded');
    await waitFor(() => path() === '/customer_contact/', 'redirect after the reload');
    await waitFor(() => $('menu-item-dashboard'), 'menu');
    expect(menuIds()).not.toContain('menu-item-users');
    expect(fake.calls.find((c) => c.path === '/permission/')?.options?.headers?.Authorization).toBe('Bearer a1');
  });

  it('a contact with view_contact sees Users and the list', async () => {
    fake.routes.set('GET /user/list/', () => ({
      status: 200,
      body: { results: [row('c1', 'greta@example.com'), row('k-1', 'k@example.com')], next: null },
    }));
    const { waitFor, $ } = await render('/customer_contact/users/', contactUser, { stored: ['view_contact'] });
    await waitFor(() => $('contact-row-greta@example.com'), 'row');
    expect(menuIds()).toContain('menu-item-users');
    // its own row offers no edit or deactivation (the server refuses both)
    expect($('contact-toggle-c1')).not.toBeNull();
    expect($('contact-row-k@example.com')).not.toBeNull();
    expect($('contact-toggle-k-1')).toBeNull();
    expect($('contact-edit-k-1')).toBeNull();
  });

  it('a signing-in contact loads its permission codes; other roles do not call', async () => {
    fake.routes.set('GET /profile/', () => ({ status: 200, body: contactUser }));
    fake.routes.set('GET /permission/', () => ({ status: 200, body: { permissions: ['view_inkasso'] } }));
    const out = await completeLogin(auth, null);
    expect(out).toEqual({ kind: 'signedIn', target: '/customer_contact/' });
    expect(session.getState().permission).toEqual(['view_inkasso']);

    fake.reset();
    fake.routes.set('GET /profile/', () => ({ status: 200, body: customer }));
    await completeLogin(auth, null);
    expect(fake.calls.map((c) => c.path)).toEqual(['/profile/']);
    expect(session.getState().permission).toEqual([]);
  });

  it('customer: the list shows status and deactivates after confirmation; pages with a cursor', async () => {
    fake.routes.set('GET /user/list/', (c) =>
      c.options?.queryParams?.cursor === 'abc'
        ? { status: 200, body: { results: [row('c2', 'old@example.com')], next: null } }
        : { status: 200, body: { results: [row('c1', 'greta@example.com')], next: 'abc' } },
    );
    const { waitFor, $, click } = await render('/user/users/', customer);
    await waitFor(() => $('contact-status-c1'), 'status');
    expect($('contact-status-c1')!.textContent).toBe('Active');
    await click('contacts-more');
    await waitFor(() => $('contact-row-old@example.com'), 'second page');

    fake.replies.push((c) => {
      expect(c).toMatchObject({ method: 'POST', path: '/customers/user/deactivate/c1/' });
      return { status: 200, body: row('c1', 'greta@example.com', false) };
    });
    await click('contact-toggle-c1');
    await waitFor(() => document.querySelector('[data-testid="contact-toggle-ok-c1"]'), 'confirmation');
    await act(async () => (document.querySelector('[data-testid="contact-toggle-ok-c1"]') as HTMLElement).click());
    await waitFor(() => $('contact-status-c1')?.textContent === 'Inactive', 'inactive');
  });

  it('customer: create sends names, e-mail and the checked permissions; server field errors show on the field', async () => {
    fake.routes.set('GET /user/list/', () => ({ status: 200, body: { results: [], next: null } }));
    const { waitFor, $, type, click, path } = await render('/user/users/create/', customer);
    await waitFor(() => $('contact-form'), 'form');
    expect(document.body.textContent).toContain('Administrate users');
    // Spec §3's labels, each a checkbox of its own code.
    expect($('contact-permission-view_all_cases')!.closest('label')!.textContent).toBe('View all cases');
    expect($('contact-permission-view_time_bank')!.closest('label')!.textContent).toBe('View time bank');
    await type('contact-first-name', 'Greta');
    await type('contact-last-name', 'Garbo');
    await type('contact-email', 'greta@example.com');
    await type('contact-phone', '12');
    await click('contact-submit');
    await waitFor(() => document.body.textContent?.includes('Enter a valid phone number'), 'phone rule');
    expect(fake.calls.some((c) => c.path === '/customers/user/create/')).toBe(false);
    await type('contact-phone', '');
    // A mistyped personnummer (check digit) is refused on the form too.
    await type('contact-identity-number', '811218-9875');
    await click('contact-submit');
    await waitFor(() => document.body.textContent?.includes('Not a valid personal identity number'), 'Luhn rule');
    expect(fake.calls.some((c) => c.path === '/customers/user/create/')).toBe(false);
    await type('contact-identity-number', '');
    await act(async () => ($('contact-permission-add_case')!.querySelector('input') ?? $('contact-permission-add_case')!).click());
    await act(async () => ($('contact-permission-view_bisnode')!.querySelector('input') ?? $('contact-permission-view_bisnode')!).click());
    await act(async () => ($('contact-permission-view_time_bank')!.querySelector('input') ?? $('contact-permission-view_time_bank')!).click());

    fake.replies.push(() => ({ status: 400, body: { status: 400, message: 'validation_failed', errors: { email: ['email_exists'] } } }));
    await click('contact-submit');
    await waitFor(() => document.body.textContent?.includes('E-mail already exists.'), 'email_exists on the field');
    expect(warning).not.toHaveBeenCalled();

    fake.replies.push((c) => {
      expect(c.options?.body).toEqual({
        first_name: 'Greta',
        last_name: 'Garbo',
        email: 'greta@example.com',
        phone: null,
        identity_number: null,
        permissions: ['add_case', 'view_bisnode', 'view_time_bank'],
      });
      return { status: 201, body: row('c9', 'greta@example.com') };
    });
    await click('contact-submit');
    await waitFor(() => path() === '/user/users/', 'back to the list');
    await waitFor(() => $('contacts-created'), 'created message');
    expect($('contacts-created')!.textContent).toContain('greta@example.com');
  });

  it('admin: the create form takes the customer from ?customer= and sends it', async () => {
    fake.routes.set('GET /customer/dropdown/list/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /customer/details/cust-1/', () => ({ status: 200, body: { uid: 'cust-1', first_name: 'Ada', last_name: 'Lind', company_name: 'Acme AB' } }));
    const { waitFor, $, type, click, path } = await render('/admin/customers/user/create/?customer=cust-1', admin);
    // the customer is picked by name, never typed as a uid
    await waitFor(() => $('contact-customer')?.textContent?.includes('Acme AB'), 'the customer by name');
    await type('contact-first-name', 'Greta');
    await type('contact-last-name', 'Garbo');
    await type('contact-email', 'greta@example.com');
    fake.replies.push((c) => {
      expect(c.options?.body).toMatchObject({ customer: 'cust-1', permissions: [] });
      return { status: 201, body: row('c9', 'greta@example.com') };
    });
    await click('contact-submit');
    await waitFor(() => path() === '/admin/customers/users/cust-1/', "to the customer's users");
  });

  it('edit: loads the contact and saves names, phone and permissions', async () => {
    fake.routes.set('GET /customers/user/c1/', () => ({ status: 200, body: { ...row('c1', 'greta@example.com'), phone: '070 123 45 67' } }));
    const { waitFor, $, type, click } = await render('/user/users/edit/c1/', customer);
    await waitFor(() => ($('contact-first-name') as HTMLInputElement | null)?.value === 'Greta', 'loaded');
    expect(($('contact-email') as HTMLInputElement).disabled).toBe(true);
    await type('contact-last-name', 'Lovisa');
    fake.replies.push((c) => {
      expect(c).toMatchObject({
        method: 'PUT',
        path: '/customers/user/update/c1/',
        options: { body: { first_name: 'Greta', last_name: 'Lovisa', phone: '070 123 45 67', permissions: ['add_case'] } },
      });
      return { status: 200, body: row('c1', 'greta@example.com') };
    });
    await click('contact-submit');
    await waitFor(() => $('contact-form-success'), 'saved');
  });

  const dashboard = {
    role: 'customer',
    open_cases: 1,
    cases: { draft: 0, waiting: 0, inprogress: 1, complete: 0 },
    subscriptions: [{ id: 5, name: 'Konsulttimmar 40 h', limit: 4000, used: 500, hour_based: true, expire_on: '2027-01-01', expiring: false }],
    recent: [{ uid: 'case-1', case_number: '2026-000001', subject: 'Hyresavtal', status: 'Inprogress', updated_at: '2026-11-20T10:00:00Z' }],
    expiring: [],
    items_read: 3,
  };
  const contactHome = (stored: string[]) => {
    fake.routes.set('GET /dashboard/', () => ({ status: 200, body: dashboard }));
    fake.routes.set('GET /customer/cust-1/', () => ({ status: 200, body: { purchased_services: [], bisnode_account_active: false, bisnode_account: null } }));
    return render('/customer_contact/', contactUser, { stored });
  };

  it('a contact without view_time_bank gets no hours-left card; with it the card shows', async () => {
    const without = await contactHome(['add_case']);
    await without.waitFor(() => without.$('dash-recent'), 'the recent cases');
    expect(without.$('dash-gauges')).toBeNull();
    await without.unmount();
    fake.reset();
    const withIt = await contactHome(['add_case', 'view_time_bank']);
    await withIt.waitFor(() => withIt.$('dash-gauges'), 'the hours-left card');
    expect(withIt.$('dash-gauges')!.textContent).toContain('Konsulttimmar 40 h');
  });

  it('a contact without view_all_cases reads no company figures on the activity page, only its own cases', async () => {
    fake.routes.set('GET /statistic/activity/cases', () => ({ status: 200, body: { results: [], next: null, items_read: 1 } }));
    const r = await render('/customer_contact/statistics/activity/', contactUser, { stored: ['add_case'] });
    await r.waitFor(() => r.$('statistics-own-cases-only'), 'the own-cases note');
    expect(r.$('statistics-table')).toBeNull();
    expect(r.$('export-csv')).toBeNull();
    expect(fake.calls.some((c) => c.path === '/statistic/activity/')).toBe(false);
  });
});
