import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { areaRoutes, customerUser: customer, lawyerUser: lawyer, sampleCase } = await import('./fixtures');

const baseCase = sampleCase();
const warning = vi.fn();
const page = pageTests({ warning });

function render(path: string, user: object, services: unknown[] = []) {
  return page.render(path, user, {
    ...areaRoutes(services),
  });
}

describe('case screens', { timeout: 180_000 }, () => {
  it('the customer without a consultancy service is told so and cannot submit', async () => {
    fake.routes.set('GET /typeofcase/list/', () => ({ status: 200, body: [{ id: 1, name: 'Tenancy' }] }));
    const r = await render('/user/cases/create/', customer);
    await r.waitFor(() => r.$('case-consultancy-required'), 'consultancy notice');
    expect(r.$('case-consultancy-required')!.textContent).toContain('consultancy service');
    expect((r.$('case-submit') as HTMLButtonElement).disabled).toBe(true);
    // no customer picker on the customer's own form
    expect(r.$('case-customer')).toBeNull();
  });

  it('lists show the status chip of spec §4', async () => {
    fake.routes.set('GET /case/list/', () => ({
      status: 200,
      body: {
        results: [
          { ...baseCase, status: 'Waiting', uid: 'a', subject: 'One', type: { id: 1, name: 'Hyresrätt', name_en: 'Tenancy law' } },
          { ...baseCase, uid: 'b', subject: 'Two', status: 'Draft', type: { id: 2, name: 'Arbetsrätt' } },
        ],
        next: null,
      },
    }));
    const r = await render('/user/cases/', customer);
    await r.waitFor(() => r.$('case-link-One'), 'rows');
    const chips = [...r.container.querySelectorAll('[data-testid="case-status"]')].map((e) => e.textContent);
    expect(chips).toEqual(['Available', 'Pending']);
    // Case types in the reader's language; no English name: the Swedish one.
    const rows = [...r.container.querySelectorAll('tr[data-row-key]')].map((e) => e.textContent ?? '');
    expect(rows[0]).toContain('Tenancy law');
    expect(rows[1]).toContain('Arbetsrätt');
    expect(fake.calls.find((c) => c.path === '/case/list/')?.options?.queryParams).toEqual({ status: 'my' });
  });

  it('a list is one page of tabs in the URL with search and sort; an API error is not an empty list', async () => {
    fake.routes.set('GET /case/list/', () => ({ status: 500, body: {} }));
    const r = await render('/lawyer/cases/available?search=acme&order=asc', lawyer);
    await r.waitFor(() => r.$('list-error'), 'error state');
    expect(r.$('list-empty')).toBeNull();
    const call = fake.calls.find((c) => c.path === '/case/list/');
    expect(call?.options?.queryParams).toEqual({ status: 'available', search: 'acme', order: 'asc' });
    const tabs = ['my', 'pending', 'available', 'closed'].map((w) => r.$(`case-tab-${w}`)?.getAttribute('href'));
    expect(tabs).toEqual([
      '/lawyer/cases/?search=acme&order=asc',
      '/lawyer/cases/pending/?search=acme&order=asc',
      '/lawyer/cases/available/?search=acme&order=asc',
      '/lawyer/cases/closed/?search=acme&order=asc',
    ]);
  });

  it('the lawyer logs hours with a comma decimal and closes after confirmation', async () => {
    fake.routes.set('GET /case/case-1/', () => ({ status: 200, body: { ...baseCase, actions: ['complete', 'transfer'], can_edit: true, can_enter_hours: true } }));
    fake.routes.set('GET /case/hour/list/', () => ({ status: 200, body: [] }));
    fake.routes.set('POST /case/hour/create/', () => ({ status: 201, body: {} }));
    fake.routes.set('POST /case/status/case-1/', () => ({ status: 200, body: baseCase }));
    const r = await render('/lawyer/cases/details/case-1', lawyer);
    await r.waitFor(() => r.$('hour-input'), 'hour form');
    await r.type('hour-input', '1,5');
    await r.click('hour-submit');
    const sent = await r.waitFor(() => fake.calls.find((c) => c.method === 'POST' && c.path === '/case/hour/create/'), 'hour call');
    const body = sent.options?.body as Record<string, unknown>;
    expect(body.hour).toBe('1,5');
    expect(body.case_uid).toBe('case-1');
    expect(body.lawyer).toBeUndefined();

    await r.click('case-action-complete');
    const ok = await r.waitFor(() => document.querySelector<HTMLElement>('[data-testid="case-action-confirm"]'), 'confirmation');
    expect(fake.calls.some((c) => c.path === '/case/status/case-1/')).toBe(false);
    await act(async () => ok.click());
    const status = await r.waitFor(() => fake.calls.find((c) => c.path === '/case/status/case-1/'), 'status call');
    expect(status.options?.body).toEqual({ action: 'complete' });
  });

  it('a hour value that is not a number is refused on the form', async () => {
    fake.routes.set('GET /case/case-1/', () => ({ status: 200, body: { ...baseCase, actions: [], can_edit: false, can_enter_hours: true } }));
    fake.routes.set('GET /case/hour/list/', () => ({ status: 200, body: [] }));
    const r = await render('/lawyer/cases/details/case-1', lawyer);
    await r.type('hour-input', '1,555');
    await r.click('hour-submit');
    await r.waitFor(() => r.container.textContent?.includes('Enter hours like 1.5'), 'inline error');
    expect(fake.calls.some((c) => c.path === '/case/hour/create/')).toBe(false);
  });
});
