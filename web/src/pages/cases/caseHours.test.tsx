import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { adminUser: admin, customerUser: customer, lawyerUser: lawyer, sampleDetails } = await import('./fixtures');

type Rendered = Awaited<ReturnType<ReturnType<typeof pageTests>['render']>>;
const theCase = sampleDetails({ address: { address_1: '', city: '', country: '', post_code: '' }, counterpart: '', can_edit: true, can_enter_hours: true });
const hour = (id: string, h: number, invoiced = false) => ({
  id,
  case_uid: 'case-1',
  lawyer: 'law-1',
  lawyer_name: 'Lars Jurist',
  hour: h,
  non_billable_hour: 0,
  rattsskydd_hour: 0,
  date: '2026-03-02',
  time: '09:30',
  is_invoiced: invoiced,
  service: 1,
  description: 'Call',
  created_at: '2026-03-02T09:30:00Z',
});
const additional = (id: string, month: string, total: number) => ({
  id,
  case_uid: 'case-1',
  lawyer: 'law-1',
  lawyer_name: 'Lars Jurist',
  month,
  total_hour: total,
  is_invoiced: false,
  description: 'Research',
  created_at: '2026-03-02T09:30:00Z',
  updated_at: '2026-03-02T09:30:00Z',
});
const warning = vi.fn();
const page = pageTests({ warning });

function render(path: string, user: object, c: object = theCase) {
  return page.render(path, user, {
    'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
    'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [], bisnode_account_active: false, bisnode_account: null } }),
    'GET /bubbles/': () => ({ status: 200, body: { pending_cases: 0, pending_customers: 0 } }),
    'GET /case/case-1/': () => ({ status: 200, body: c }),
  });
}

const sent = (r: Rendered, method: string, path: string) =>
  r.waitFor(() => fake.calls.find((c) => c.method === method && c.path === path), `${method} ${path}`);

function checkRow(r: Rendered, table: string, row: number) {
  const boxes = r.container.querySelectorAll<HTMLInputElement>(`[data-testid="${table}"] .ant-table-tbody input[type="checkbox"]`);
  return act(async () => boxes[row].click());
}

describe('case hours screens', { timeout: 180_000 }, () => {
  it('details: edit links carry the case, selected rows are marked invoiced in one call, additional hours listed', async () => {
    fake.routes.set('GET /case/hour/list/', () => ({ status: 200, body: [hour('h1', 1.5), hour('h2', 0.25), hour('h3', 1)] }));
    fake.routes.set('GET /case/additional_hour/list/', () => ({ status: 200, body: [additional('a1', '2026-03', 2.5)] }));
    fake.routes.set('PUT /case/hour/mass-update/', () => ({ status: 200, body: [] }));
    const r = await render('/lawyer/cases/details/case-1', lawyer);
    await r.waitFor(() => r.$('hour-edit-h1'), 'edit link');
    expect(r.$('hour-edit-h1')!.getAttribute('href')).toBe('/lawyer/cases/case-hour/update/h1?case=case-1');
    expect(r.$('case-history-additional-link')!.getAttribute('href')).toBe('/lawyer/cases/history-additional/case-1');
    await r.waitFor(() => r.$('additional-edit-2026-03'), 'additional row');
    expect(r.$('additional-edit-2026-03')!.getAttribute('href')).toBe('/lawyer/cases/additional_hour/update/a1?case=case-1');
    expect(r.$('additional-hours-total')!.textContent).toBe('Total: 2.5 h');
    // Both add forms on one page: every element id once, so each label focuses its own field.
    await r.waitFor(() => r.$('hour-form') && r.$('additional-form'), 'both forms');
    const ids = [...r.container.querySelectorAll('[id]')].map((e) => e.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);

    expect(r.$('hours-mark-invoiced')).toBeNull();
    await checkRow(r, 'case-hours-table', 0);
    await checkRow(r, 'case-hours-table', 2);
    await r.click('hours-mark-invoiced');
    const call = await sent(r, 'PUT', '/case/hour/mass-update/');
    expect(call.options?.body).toEqual({ case_uid: 'case-1', ids: ['h1', 'h3'], is_invoiced: true });
    // The table is reloaded and the selection cleared.
    await r.waitFor(() => !r.$('hours-mark-invoiced'), 'selection cleared');
    expect(fake.calls.filter((c) => c.path === '/case/hour/list/').length).toBe(2);
  });

  it('details: admin still marks hours invoiced on a closed case, without the add form', async () => {
    fake.routes.set('GET /case/hour/list/', () => ({ status: 200, body: [hour('h1', 1.5), hour('h2', 0.25)] }));
    fake.routes.set('GET /case/additional_hour/list/', () => ({ status: 200, body: [additional('a1', '2026-03', 2.5)] }));
    fake.routes.set('PUT /case/hour/mass-update/', () => ({ status: 200, body: [] }));
    const r = await render('/admin/cases/details/case-1', admin, { ...theCase, status: 'Complete', can_enter_hours: false, can_edit: true });
    // Additional hours too: selectable, but no add form.
    await r.waitFor(() => r.container.querySelectorAll('[data-testid="additional-hours-table"] .ant-table-row input[type="checkbox"]').length === 1, 'selectable additional row');
    expect(r.$('additional-form')).toBeNull();
    await r.waitFor(() => r.container.querySelectorAll('[data-testid="case-hours-table"] .ant-table-row input[type="checkbox"]').length === 2, 'selectable rows');
    expect(r.$('hour-form')).toBeNull();
    const row = [...r.container.querySelectorAll<HTMLElement>('[data-testid="case-hours-table"] .ant-table-row')].find((tr) => tr.getAttribute('data-row-key') === 'h2');
    await act(async () => row!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click());
    await r.click('hours-mark-invoiced');
    const call = await sent(r, 'PUT', '/case/hour/mass-update/');
    expect(call.options?.body).toEqual({ case_uid: 'case-1', ids: ['h2'], is_invoiced: true });
  });

  it('details: read-only for the customer (no selection, no edit, no add form)', async () => {
    fake.routes.set('GET /case/hour/list/', () => ({ status: 200, body: [hour('h1', 1.5)] }));
    fake.routes.set('GET /case/additional_hour/list/', () => ({ status: 200, body: [additional('a1', '2026-03', 2.5)] }));
    const r = await render('/user/cases/details/case-1', customer, { ...theCase, can_enter_hours: false, can_edit: false });
    await r.waitFor(() => r.container.textContent?.includes('2026-03'), 'additional row');
    expect(r.$('additional-form')).toBeNull();
    expect(r.$('additional-edit-2026-03')).toBeNull();
    expect(r.$('hour-edit-h1')).toBeNull();
    expect(r.$('case-history-additional-link')).toBeNull();
    expect(r.container.querySelectorAll('[data-testid="case-hours-table"] input[type="checkbox"]').length).toBe(0);
  });

  it('hour update page: prefilled with comma decimals, saves through case/hour/edit and goes back', async () => {
    fake.routes.set('GET /case/hour/h1/', () => ({ status: 200, body: hour('h1', 1.5, true) }));
    fake.routes.set('PUT /case/hour/edit/h1/', () => ({ status: 200, body: hour('h1', 2.25, true) }));
    fake.routes.set('GET /case/hour/list/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /case/additional_hour/list/', () => ({ status: 200, body: [] }));
    const r = await render('/lawyer/cases/case-hour/update/h1?case=case-1', lawyer);
    const input = (await r.waitFor(() => r.$('hour-update-hour'), 'form')) as HTMLInputElement;
    await r.waitFor(() => input.value === '1,5', 'prefilled hour');
    expect((r.$('hour-update-time') as HTMLInputElement).value).toBe('09:30');
    expect(fake.calls.find((c) => c.path === '/case/hour/h1/')?.options?.queryParams).toEqual({ case: 'case-1' });
    await r.type('hour-update-hour', '2,25');
    await r.click('hour-update-submit');
    const call = await sent(r, 'PUT', '/case/hour/edit/h1/');
    expect(call.options?.body).toMatchObject({ case_uid: 'case-1', hour: '2,25', date: '2026-03-02', time: '09:30', is_invoiced: true, description: 'Call' });
    await r.waitFor(() => r.path() === '/lawyer/cases/details/case-1', 'back on details');
  });

  it('hour update page: the server refusal is shown translated; below 0,01 never leaves the form', async () => {
    fake.routes.set('GET /case/hour/h1/', () => ({ status: 200, body: hour('h1', 1.5) }));
    fake.routes.set('PUT /case/hour/edit/h1/', () => ({ status: 400, body: { status: 400, message: 'limit_reached', errors: {} } }));
    const r = await render('/lawyer/cases/case-hour/update/h1?case=case-1', lawyer);
    const input = (await r.waitFor(() => r.$('hour-update-hour'), 'form')) as HTMLInputElement;
    await r.waitFor(() => input.value === '1,5', 'prefilled hour');
    await r.type('hour-update-hour', '0');
    await r.click('hour-update-submit');
    await r.waitFor(() => r.container.textContent?.includes('At least 0.01 hours'), 'minimum');
    expect(fake.calls.some((c) => c.path === '/case/hour/edit/h1/')).toBe(false);

    await r.type('hour-update-hour', '9');
    await r.click('hour-update-submit');
    const alert = await r.waitFor(() => r.$('hour-update-errors'), 'server error');
    expect(alert.textContent).toContain('Limit has been reached, please upgrade your account.');
    expect(r.path()).toBe('/lawyer/cases/case-hour/update/h1');
    // Shown inline, not also as a §8 notification.
    expect(warning).not.toHaveBeenCalled();
  });

  it('hour update page is read-only when the entry can no longer be changed', async () => {
    fake.routes.set('GET /case/hour/h1/', () => ({ status: 200, body: hour('h1', 1.5) }));
    const r = await render('/admin/cases/case-hour/update/h1?case=case-1', admin, { ...theCase, status: 'Complete', can_enter_hours: false });
    await r.waitFor(() => r.$('hour-update-readonly'), 'read-only notice');
    expect((r.$('hour-update-hour') as HTMLInputElement).disabled).toBe(true);
    expect(r.$('hour-update-delete')).toBeNull();
  });

  it('additional hour update page: month and total saved; a taken month shown on the field', async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: { status: 400, message: 'validation_failed', errors: { month: ['additional_hour_month_taken'] } },
    };
    fake.routes.set('GET /case/additional_hour/a1/', () => ({ status: 200, body: additional('a1', '2026-03', 2.5) }));
    fake.routes.set('PUT /case/additional_hour/edit/a1/', () => answer);
    fake.routes.set('GET /case/hour/list/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /case/additional_hour/list/', () => ({ status: 200, body: [] }));
    const r = await render('/admin/cases/additional_hour/update/a1?case=case-1', admin);
    const input = (await r.waitFor(() => r.$('additional-update-total'), 'form')) as HTMLInputElement;
    await r.waitFor(() => input.value === '2,5', 'prefilled total');
    await r.type('additional-update-total', '3,75');
    await r.click('additional-update-submit');
    await r.waitFor(() => r.container.textContent?.includes('There are already additional hours for this month.'), 'field error');
    const call = fake.calls.find((c) => c.method === 'PUT')!;
    expect(call.options?.body).toMatchObject({ case_uid: 'case-1', month: '2026-03', total_hour: '3,75', description: 'Research' });

    answer = { status: 200, body: additional('a1', '2026-03', 3.75) };
    await r.click('additional-update-submit');
    await r.waitFor(() => r.path() === '/admin/cases/details/case-1', 'back on details');
  });

  it('additional history page lists who changed what', async () => {
    fake.routes.set('GET /case/history-additional/case-1/', () => ({
      status: 200,
      body: [{ case_uid: 'case-1', at: '2026-03-02T09:30:00Z', by: 'law-1', by_name: 'Lars Jurist', field: 'additional_hour', before: null, after: '2026-03 2.5 h' }],
    }));
    const r = await render('/lawyer/cases/history-additional/case-1', lawyer);
    await r.waitFor(() => r.container.textContent?.includes('2026-03 2.5 h'), 'history row');
    expect(r.$('additional-history-table')!.textContent).toContain('Lars Jurist');
    expect(r.$('page-title')!.textContent).toBe('Additional hours history');
  });
});
