import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { toValues } = await import('./StaffForm');
const { formatOre } = await import('../../format');

const admin = { email: 'a@example.com', id: 1, is_staff: true, full_name: 'Ada' };

const lawyer = (i: number, external = false) => ({
  uid: `u${i}`,
  role: 'lawyer',
  first_name: `L${i}`,
  last_name: 'Advokat',
  email: `l${i}@example.com`,
  active: i % 2 === 0,
  created_at: '2026-11-23T10:00:00Z',
  lawyer: {
    user_sub_type: external ? 'external' : 'internal',
    company_name: external ? 'Byrå AB' : null,
    hourly_rate_ore: external ? 185050 : null,
    knowledge_sectors: [1],
    company_affiliation: null,
    description: '',
    video_care_url: null,
  },
});

const rowNames = () => [...document.querySelectorAll('[data-testid="staff-row-name"]')].map((e) => e.textContent);

describe('lawyers and sales persons (admin)', { timeout: 180_000 }, () => {
  const page = pageTests();
  const render = (path: string) => page.render(path, admin);
  const container = () => page.ui!.container;

  it('pages through a list by cursor and back', async () => {
    fake.routes.set('GET /lawyer/list/', (c) =>
      c.options?.queryParams?.cursor === 'c2'
        ? { status: 200, body: { results: [lawyer(11)], next: null } }
        : { status: 200, body: { results: [lawyer(1), lawyer(2)], next: 'c2' } },
    );
    const { $, waitFor, click } = await render('/admin/lawyers/');
    await waitFor(() => rowNames().length === 2, 'first page');
    expect(rowNames()).toEqual(['L1 Advokat', 'L2 Advokat']);
    expect(fake.calls.find((c) => c.path === '/lawyer/list/')?.options?.queryParams).toEqual({ type: 'internal' });
    await click('pager-next');
    await waitFor(() => rowNames().length === 1, 'second page');
    expect($('pager-page')?.textContent).toBe('Page 2');
    await click('pager-previous');
    await waitFor(() => rowNames().length === 2, 'back to the first page');
  });

  it('external lawyers show company and rate in SEK', async () => {
    fake.routes.set('GET /lawyer/list/', () => ({ status: 200, body: { results: [lawyer(3, true)], next: null } }));
    const { waitFor } = await render('/admin/lawyers/external/');
    await waitFor(() => rowNames().length === 1, 'rows');
    expect(container().textContent).toContain('Byrå AB');
    expect(container().textContent).toContain(formatOre(185050));
    expect(formatOre(185050, 'sv').replace(/\s/g, ' ')).toMatch(/1 850,50 SEK/);
  });

  it('an external lawyer needs company and rate, and at least one sector, before anything is sent', async () => {
    fake.routes.set('GET /knowledge/sector/list/', () => ({ status: 200, body: [{ id: 1, name: 'Family law' }] }));
    const { $, waitFor, type, click } = await render('/admin/lawyer/create/');
    await waitFor(() => $('staff-form'), 'form');
    await type('staff-first-name', 'Eva');
    await type('staff-last-name', 'Extern');
    await type('staff-email', 'eva@example.com');
    await act(async () => {
      (container().querySelector('input[type="radio"][value="external"]') as HTMLInputElement).click();
    });
    await waitFor(() => $('staff-company-name'), 'company field appears');
    await click('staff-submit');
    await waitFor(() => container().textContent?.includes('Choose at least one knowledge sector.'), 'client rules');
    expect(container().textContent).toContain('This field is required.');
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('update sends the form as stored values and shows the server field errors', async () => {
    fake.routes.set('GET /knowledge/sector/list/', () => ({ status: 200, body: [{ id: 1, name: 'Family law' }] }));
    fake.routes.set('GET /lawyer/u4/', () => ({ status: 200, body: lawyer(4, true) }));
    fake.routes.set('PUT /lawyer/update/u4/', () => ({
      status: 400,
      body: { status: 400, message: 'external_lawyer_requires_company_and_rate', errors: { company_name: ['required'] } },
    }));
    const { $, waitFor, click } = await render('/admin/lawyer/update/u4/');
    await waitFor(() => ($('staff-first-name') as HTMLInputElement | null)?.value === 'L4', 'form filled');
    expect(($('staff-email') as HTMLInputElement).disabled).toBe(true);
    await click('staff-submit');
    await waitFor(() => $('staff-form-error'), 'server message');
    const put = fake.calls.find((c) => c.method === 'PUT');
    expect(put?.options?.body).toMatchObject({ hourly_rate: 1850.5, knowledge_sectors: [1], user_sub_type: 'external', company_name: 'Byrå AB' });
    expect($('staff-form-error')?.textContent).toContain('External lawyers need a company name and an hourly rate.');
  });

  it('deactivates after confirmation and reloads the list', async () => {
    let active = true;
    fake.routes.set('GET /lawyer/list/', () => ({ status: 200, body: { results: [{ ...lawyer(2), active }], next: null } }));
    fake.routes.set('POST /user/deactivate/u2/', () => {
      active = false;
      return { status: 200, body: { uid: 'u2', active: false } };
    });
    const { $, waitFor, click } = await render('/admin/lawyers/');
    await waitFor(() => $('staff-row-status')?.textContent === 'Active', 'active row');
    await click('staff-toggle-active');
    const ok = await waitFor(() => document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement | null, 'confirm');
    await act(async () => ok.click());
    await waitFor(() => $('staff-row-status')?.textContent === 'Inactive', 'reloaded as inactive');
    expect(fake.calls.some((c) => c.method === 'POST' && c.path === '/user/deactivate/u2/')).toBe(true);
  });

  it('maps a stored profile to form values (öre → SEK)', () => {
    const v = toValues(lawyer(4, true) as never);
    expect(v.hourly_rate).toBe(1850.5);
    expect(v.user_sub_type).toBe('external');
    expect(v.knowledge_sectors).toEqual([1]);
  });
});
