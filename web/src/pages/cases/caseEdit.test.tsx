import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');

const { customerUser: customer, sampleDetails } = await import('./fixtures');
const contact = { ...customer, user_type: 4, uid: 'cc-1', customer_id: 'cust-1', company_id: 'cust-1' };
const draft = sampleDetails({ case_number: '2026-000007', status: 'Draft', lawyer: null, lawyer_name: null, counterpart: '', can_edit: true });
const common = {
  'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [], bisnode_account_active: false, bisnode_account: null } }),
  'GET /typeofcase/list/': () => ({ status: 200, body: [{ id: 1, name: 'Tenancy' }] }),
  'GET /case/case-1/': () => ({ status: 200, body: draft }),
  'GET /case/hour/list/': () => ({ status: 200, body: [] }),
};

describe('the customer side edits its drafts', { timeout: 180_000 }, () => {
  const page = pageTests();

  it('details link to cases/edit/{uid}; the form loads the case and saves with PUT', async () => {
    const r = await page.render('/user/cases/details/case-1', customer, {
      ...common,
      'PUT /case/update/case-1/': () => ({ status: 200, body: { ...draft, subject: 'Lease dispute (revised)' } }),
    });
    await r.waitFor(() => r.$('case-edit'), 'edit button');
    await r.click('case-edit');
    await r.waitFor(() => (r.path() === '/user/cases/edit/case-1' ? true : null), 'edit route');
    const subject = await r.waitFor(() => {
      const el = r.$('case-subject') as HTMLInputElement | null;
      return el && el.value === 'Lease dispute' ? el : null;
    }, 'form filled');
    // Every field holds the case's stored value, not an empty form's.
    expect(subject.value).toBe(draft.subject);
    expect((r.$('case-description') as HTMLTextAreaElement).value).toBe(draft.description);
    expect((r.$('case-post-code') as HTMLInputElement).value).toBe(draft.address.post_code);
    // The customer never picks a customer, nor sees the internal description.
    expect(r.$('case-customer')).toBeNull();
    await r.type('case-subject', 'Lease dispute (revised)');
    await r.click('case-submit');
    const put = await r.waitFor(() => fake.calls.find((c) => c.method === 'PUT' && c.path === '/case/update/case-1/'), 'PUT');
    const body = put.options?.body as Record<string, unknown>;
    expect(body.subject).toBe('Lease dispute (revised)');
    expect(body.estimated_hours).toBe('2,5');
    await r.waitFor(() => (r.path() === '/user/cases/details/case-1' ? true : null), 'back to details');
  });

  it('a contact without add_case is sent back from the edit route', async () => {
    const r = await page.render('/customer_contact/cases/edit/case-1', contact, {
      ...common,
      'GET /permission/': () => ({ status: 200, body: { permissions: ['view_contact'] } }),
    });
    await r.waitFor(() => (r.path() === '/customer_contact/' ? true : null), 'redirect');
    expect(r.$('case-form')).toBeNull();
  });

  it('the history page names the case', async () => {
    const r = await page.render('/user/cases/history/case-1', customer, {
      ...common,
      'GET /case/name/case-1/': () => ({ status: 200, body: { uid: 'case-1', case_number: '2026-000007', subject: 'Lease dispute', status: 'Draft', customer_name: 'Acme AB' } }),
      'GET /case/history/case-1/': () => ({ status: 200, body: [] }),
    });
    const name = await r.waitFor(() => r.$('case-history-name'), 'name');
    expect(name.textContent).toBe('2026-000007 · Lease dispute · Acme AB');
  });

  it('the history shows a changed case type and address country in the reader language', async () => {
    const entry = (field: string, before: string, after: string) => ({ case_uid: 'case-1', at: '2026-11-23T10:00:00Z', by: 'adm-1', by_name: 'Ada Admin', field, before, after });
    const r = await page.render('/user/cases/history/case-1', customer, {
      ...common,
      'GET /case/name/case-1/': () => ({ status: 200, body: { uid: 'case-1', case_number: '2026-000007', subject: 'Lease', status: 'Draft', customer_name: 'Acme AB' } }),
      'GET /case/history/case-1/': () => ({
        status: 200,
        body: [
          entry('type', JSON.stringify({ id: 1, name: 'Hyresrätt', name_en: 'Tenancy law' }), JSON.stringify({ id: 2, name: 'Arbetsrätt', name_en: null })),
          entry('address', JSON.stringify({ address_1: 'Gata 1', city: 'Oslo', post_code: '0150', country: 'NO' }), JSON.stringify({ address_1: 'Gata 1', city: 'X', post_code: '', country: 'Atlantis' })),
        ],
      }),
    });
    await r.waitFor(() => (r.container.textContent?.includes('Tenancy law') ? true : null), 'type in English');
    const text = r.container.textContent ?? '';
    expect(text).toContain('Arbetsrätt'); // no English name: the Swedish one
    expect(text).toContain('Gata 1, 0150, Oslo, Norway');
    expect(text).toContain('Gata 1, X, Atlantis'); // an old free text stays as it was
    expect(text).not.toContain('{"id"');
  });

  it('the details of every role link to the case history (the sales person too)', async () => {
    const sales = { email: 's@example.com', id: 5, is_staff: false, user_type: 2, full_name: 'Sara Säljare', uid: 'sp-1', image: 'not set' };
    const r = await page.render('/sales/cases/details/case-1', sales, common);
    await r.waitFor(() => r.$('case-edit'), 'details');
    expect(r.$('case-edit')!.closest('a')!.getAttribute('href')).toBe('/sales/case/update/case-1/');
    expect(r.$('case-history-link')!.getAttribute('href')).toBe('/sales/cases/history/case-1');

    // A second render replaces the first.
    const c = await page.render('/user/cases/details/case-1', customer, common);
    const link = await c.waitFor(() => c.$('case-history-link'), 'history link');
    expect(link.getAttribute('href')).toBe('/user/cases/history/case-1');
  });
});
