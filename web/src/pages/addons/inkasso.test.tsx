import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const session = await import('../../store/session');
const { parseSekToOre } = await import('../../api/inkasso');

const customer = { email: 'c@example.com', id: 7, uid: 'cust-1', is_staff: false, user_type: 3, full_name: 'Cee' };
const page = pageTests();
const row = { id: 1, service: { id: 4, name: 'Incasso' }, expired: false, status: 'Active' };
const account = {
  home_page: '',
  bank_name: 'Banken',
  bank_account: '1234-5678901',
  plus_giro: '',
  bank_giro: '',
  iban: '',
  bic: '',
  approved_ip: '192.0.2.10',
  contact_name: 'Kim',
  organization_number: '556000-0001',
};
const prospect = (state: string, handedOver = true) => ({
  account,
  state,
  applied_at: '2026-11-24T06:00:00Z',
  handed_over_at: handedOver ? '2026-11-24T06:00:01Z' : null,
  approved_date: null,
  creditor_id: state === 'approved' ? 'K-10234' : null,
});
const claim = {
  uid: 'c1',
  debtor_name: 'Gäldenär AB',
  debtor_number: '556000-0001',
  debtor_address: 'Storgatan 1',
  debtor_email: 'e@example.com',
  amount: 1_250_050,
  invoice_number: 'F-17',
  due_date: '2026-10-31',
  invoice: { key: 'inkasso/cust-1/x.pdf', name: 'faktura.pdf' },
  status: 'reminder_sent',
  agency_reference: 'INK-42',
  handed_over_at: '2026-11-24T06:00:01Z',
  created_at: '2026-11-24T06:00:00Z',
  updated_at: '2026-11-24T06:00:00Z',
};

function open(state: string | null) {
  session.setState({ permission: [] as never });
  return page.render('/user/services/inkasso/', customer, {
    'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [row], bisnode_account_active: false, bisnode_account: null } }),
    'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
    'GET /inkasso/prospect/': () => ({ status: 200, body: state ? prospect(state) : null }),
    'GET /services/inkasso/claims/': () => ({ status: 200, body: [claim] }),
  });
}

describe('Inkasso: debt collection', { timeout: 180_000 }, () => {
  it('an application handed over to the office says to come back and asks again; approved, the number and the claims appear', async () => {
    const { $, waitFor, click, container } = await open('applied');
    await waitFor(() => $('inkasso-state'), 'state');
    expect($('inkasso-state')?.textContent).toContain('come back after 30 minutes');
    expect($('inkasso-text')?.textContent).toContain('handed over to the office');
    expect($('claim-form')).toBeNull();
    fake.routes.set('GET /inkasso/prospect/', () => ({ status: 200, body: prospect('approved') }));
    await click('inkasso-refresh');
    await waitFor(() => $('claim-form') && $('claim-status'), 'claims');
    expect($('inkasso-state')?.textContent).toBe('Approved');
    expect($('inkasso-hash')?.textContent).toContain('K-10234');
    expect($('claim-status')?.textContent).toBe('Reminder sent');
    expect(container.textContent).toContain('INK-42');
    expect(container.textContent).toMatch(/12\s500,50\sSEK/);
    expect($('inkasso-refresh')).toBeNull();
  });

  it('an application whose hand-over mail has not gone says it is saved and sent again', async () => {
    session.setState({ permission: [] as never });
    const { $, waitFor } = await page.render('/user/services/inkasso/', customer, {
      'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [row], bisnode_account_active: false, bisnode_account: null } }),
      'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
      'GET /inkasso/prospect/': () => ({ status: 200, body: prospect('applied', false) }),
    });
    await waitFor(() => $('inkasso-text'), 'text');
    expect($('inkasso-text')?.textContent).toContain('not yet handed over');
  });

  it('a rejected application says so', async () => {
    const { $, waitFor } = await open('rejected');
    await waitFor(() => $('inkasso-text'), 'text');
    expect($('inkasso-text')?.textContent).toContain('rejected');
    expect($('claim-form')).toBeNull();
  });

  it('the claim form needs the invoice PDF before anything is sent', async () => {
    const { $, waitFor, type, click, container } = await open('approved');
    await waitFor(() => $('claim-form'), 'form');
    fake.routes.set('POST /services/inkasso/claims/upload-url/', () => ({
      status: 200,
      body: { url: 'https://bucket.example/put', key: 'inkasso/cust-1/x.pdf', content_type: 'application/pdf', name: 'faktura.pdf', max_bytes: 1 },
    }));
    fake.routes.set('POST /services/inkasso/claims/', () => ({
      status: 400,
      body: { status: 400, message: 'validation_failed', errors: { due_date: ['due_date_too_far'], debtor_number: ['invalid_registration_number'] } },
    }));
    // The invoice is required before anything is sent.
    for (const [id, v] of [
      ['claim-debtor_name', 'Gäldenär AB'],
      ['claim-debtor_number', '556000-0002'],
      ['claim-debtor_address', 'Storgatan 1'],
      ['claim-debtor_email', 'e@example.com'],
      ['claim-amount', '100'],
      ['claim-invoice_number', 'F-1'],
      ['claim-due_date', '2030-01-01'],
    ]) {
      await type(id, v);
    }
    await click('claim-submit');
    await waitFor(() => container.textContent?.includes('Attach the invoice as a PDF.'), 'invoice required');
    expect(fake.calls.some((c) => c.method === 'POST' && c.path === '/services/inkasso/claims/')).toBe(false);
  });

  it('admin: the hand-over page lists applications and claims, needs the agency number to approve, and saves a claim status', async () => {
    const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, uid: 'adm-1', full_name: 'Ada Admin' };
    const handovers = {
      applications: [{ customer_uid: 'cust-1', customer_name: 'Kund AB', prospect: prospect('applied') }],
      claims: [{ customer_uid: 'cust-1', customer_name: 'Kund AB', creditor_id: 'K-10234', claim: { ...claim, customer_uid: 'cust-1', status: 'submitted', agency_reference: null } }],
    };
    const { $, waitFor, click, type, container } = await page.render('/admin/customers/inkasso/', admin, {
      'GET /admin/inkasso/': () => ({ status: 200, body: handovers }),
      'PUT /admin/inkasso/cust-1/prospect/': () => ({ status: 200, body: prospect('approved') }),
      'PUT /admin/inkasso/cust-1/claims/c1/': () => ({ status: 200, body: { ...claim, status: 'registered' } }),
    });
    await waitFor(() => $('handover-application'), 'application');
    expect(container.textContent).toContain('Kund AB');
    expect(container.textContent).toContain('1234-5678901');
    expect(container.textContent).toContain('Submitted – waiting for the office');
    // Approving needs the agency's customer number: nothing is sent without it.
    await click('handover-approve');
    await waitFor(() => $('handover-error'), 'error');
    expect($('handover-error')?.textContent).toContain('customer number');
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
    await type('handover-creditor-id', ' K-10234 ');
    await click('handover-approve');
    await waitFor(() => fake.calls.find((c) => c.method === 'PUT' && c.path === '/admin/inkasso/cust-1/prospect/'), 'decision sent');
    expect(fake.calls.find((c) => c.path === '/admin/inkasso/cust-1/prospect/')?.options?.body).toEqual({ state: 'approved', creditor_id: 'K-10234' });
    // A claim's reference and status are saved together.
    expect(container.querySelectorAll('[data-testid="handover-claim-save"]').length).toBe(1);
    await type('handover-claim-reference', 'INK-42');
    await click('handover-claim-save');
    await waitFor(() => fake.calls.find((c) => c.method === 'PUT' && c.path === '/admin/inkasso/cust-1/claims/c1/'), 'status sent');
    expect(fake.calls.find((c) => c.path === '/admin/inkasso/cust-1/claims/c1/')?.options?.body).toEqual({ status: 'submitted', agency_reference: 'INK-42' });
  });

  it('amounts in SEK become öre', () => {
    expect(parseSekToOre('12 500,50')).toBe(1_250_050);
    expect(parseSekToOre('100')).toBe(10_000);
    expect(parseSekToOre('0,5')).toBe(50);
    expect(parseSekToOre('1,234')).toBeNull();
    expect(parseSekToOre('-5')).toBeNull();
    expect(parseSekToOre('abc')).toBeNull();
  });
});
