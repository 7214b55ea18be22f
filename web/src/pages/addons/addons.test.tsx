import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const session = await import('../../store/session');

const customer = { email: 'c@example.com', id: 7, uid: 'cust-1', is_staff: false, user_type: 3, full_name: 'Cee' };
const contact = { email: 'k@example.com', id: 8, uid: 'con-1', is_staff: false, user_type: 4, full_name: 'Kay', customer_id: 'cust-1', company_id: 'cust-1' };
const page = pageTests();

const row = (serviceId: number) => ({ id: 1, service: { id: serviceId, name: 'x' }, expired: false, status: 'Active' });
const envelope = {
  uid: 'e1',
  name: 'Hyresavtal',
  documents: [{ key: 'envelopes/cust-1/a.pdf', name: 'a.pdf' }],
  recipients: [
    { name: 'A', email: 'a@example.com', phone: '', locale: 'sv', role: 'signer', notify_sms: false, require_auth: false, sign_method: 'bankid_se', signed: true },
    { name: 'B', email: 'b@example.com', phone: '', locale: 'sv', role: 'signer', notify_sms: false, require_auth: false, sign_method: 'bankid_se', signed: false },
  ],
  sequential: false,
  state: 'sent',
  created_at: '2026-11-24T10:00:00Z',
  updated_at: '2026-11-24T10:00:00Z',
};

function open(path: string, user: object, opts: { rows: unknown[]; token?: boolean; permissions?: string[]; bisnode?: boolean }) {
  session.setState({ permission: (opts.permissions ?? []) as never });
  return page.render(path, user, {
    'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: opts.rows, bisnode_account_active: !!opts.bisnode, bisnode_account: null } }),
    'GET /permission/': () => ({ status: 200, body: { permissions: opts.permissions ?? [] } }),
    'GET /verified/check/': () => ({ status: 200, body: { registered: !!opts.token, valid: !!opts.token } }),
    'GET /services/contract-sign/': () => ({ status: 200, body: [envelope] }),
    'GET /services/credit-check/': () => ({ status: 200, body: [] }),
  });
}

describe('add-on services (spec §5)', { timeout: 180_000 }, () => {
  it('a contact without view_verify is sent to /customer_contact/', async () => {
    const { waitFor, path } = await open('/customer_contact/services/contract-sign/', contact, { rows: [row(2)], token: true, permissions: ['add_case'] });
    await waitFor(() => path() === '/customer_contact/', 'redirect to the contact dashboard');
    expect(fake.calls.some((c) => c.path === '/services/contract-sign/')).toBe(false);
  });

  it('a contact with view_verify but no plan sees the promotion', async () => {
    const { $, waitFor } = await open('/customer_contact/services/contract-sign/', contact, { rows: [], permissions: ['view_verify'] });
    await waitFor(() => $('service-promotion'), 'promotion');
  });

  it('with the plan but no token, the registration/login screen appears', async () => {
    const { $, waitFor, container } = await open('/user/services/contract-sign/', customer, { rows: [row(2)], token: false });
    await waitFor(() => $('verified-token-screen'), 'token screen');
    expect(container.textContent).toContain('Connect account');
    expect($('envelope-list')).toBeNull();
  });

  it('with the token, the envelopes with state and progress', async () => {
    const { $, waitFor, container } = await open('/user/services/contract-sign/', customer, { rows: [row(2)], token: true });
    await waitFor(() => $('envelope-list') && container.textContent?.includes('Hyresavtal'), 'list');
    expect($('envelope-progress')?.textContent).toBe('1/2');
    expect(container.textContent).toContain('Sent for signing');
  });

  it('the create form shows the server\'s not-enough-signers message', async () => {
    const { $, waitFor, container, type, click } = await open('/user/services/contract-sign/create/', customer, { rows: [row(2)], token: true });
    await waitFor(() => $('envelope-editor'), 'editor');
    fake.routes.set('POST /services/contract-sign/', () => ({ status: 400, body: { status: 400, message: 'not_enough_signers', errors: {} } }));
    await type('envelope-name', 'Avtal');
    await type('recipient-name-0', 'A');
    await type('recipient-email-0', 'a@example.com');
    await click('envelope-save');
    await waitFor(() => $('envelope-error'), 'error');
    expect(container.textContent).toContain('Not enough signers.');
  });

  it('credit check needs the account, then shows the lookup', async () => {
    const inactive = await open('/user/services/credit-check/', customer, { rows: [row(3)], bisnode: false });
    await inactive.waitFor(() => inactive.$('service-refused')?.getAttribute('data-refusal') === 'credit_account_inactive', 'refusal');
    expect(inactive.$('service-promotion')).toBeNull();
    const { $, waitFor } = await open('/user/services/credit-check/', customer, { rows: [row(3)], bisnode: true });
    await waitFor(() => $('credit-check-page') && $('credit-number'), 'credit page');
  });

  it("a person's lookup asks for the legitimate need and the copy's address, and shows where the copy went", async () => {
    const { $, waitFor, type, click, container } = await open('/user/services/credit-check/', customer, { rows: [row(3)], bisnode: true });
    await waitFor(() => $('credit-number'), 'credit page');
    expect($('credit-person-fields')).toBeNull();
    await click('credit-kind-person');
    await waitFor(() => $('credit-need') && $('credit-copy-email'), 'the person fields');
    const report = {
      uid: 'r1', kind: 'person', number: '121212-1212', status: 'ready', name: 'Anna Berg', rating: 'AA', payment_remarks: 0, turnover: null,
      legitimate_need: 'Kreditprövning', subject_copy: { channel: 'email', to: 'anna@example.com', sent_at: '2026-11-29T10:00:00Z' }, created_at: '2026-11-29T10:00:00Z',
    };
    fake.routes.set('POST /services/credit-check/', () => ({ status: 201, body: report }));
    // Without a need nothing is sent.
    await type('credit-number', '121212-1212');
    await click('credit-submit');
    await waitFor(() => container.textContent?.includes('Required'), 'the need is required');
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);
    fake.routes.set('GET /services/credit-check/', () => ({ status: 200, body: [report] }));
    await type('credit-need', 'Kreditprövning');
    await type('credit-copy-email', 'anna@example.com');
    await click('credit-submit');
    await waitFor(() => $('credit-copy-r1'), 'the report with its copy');
    const sent = fake.calls.find((c) => c.method === 'POST' && c.path === '/services/credit-check/');
    expect(sent?.options?.body).toEqual({ kind: 'person', number: '121212-1212', legitimate_need: 'Kreditprövning', copy_email: 'anna@example.com' });
    expect($('credit-copy-r1')?.textContent).toBe('Copy e-mailed to anna@example.com');
  });
});
