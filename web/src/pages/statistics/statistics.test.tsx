import { describe, expect, it, vi } from 'vitest';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const page = pageTests();
const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, uid: 'adm-1', full_name: 'Ada Admin' };

const account = {
  period: { from: '2026-11-01', to: '2026-11-30' },
  by_day: true,
  series: [],
  pie: [],
  items_read: 3,
  table: {
    columns: ['dimension', 'name', 'customers.new', 'customers.state.active', 'customers.state.pending', 'customers.state.inactive'],
    rows: [
      ['sector', 'Financial', 1, 1, 0, 0],
      ['sector', 'none', 2, 1, 1, 0],
      ['size', 'none', 3, 2, 1, 0],
    ],
  },
};

describe('Statistics → Account', { timeout: 180_000 }, () => {
  it('names the dimensions, "none" and the seeded sectors in the reader\'s language, no raw keys', async () => {
    const r = await page.render('/admin/statistics/account/', admin, {
      'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
      'GET /statistic/account/': () => ({ status: 200, body: account }),
    });
    const table = await r.waitFor(() => (r.$('statistics-table')?.textContent?.includes('Financial') ? r.$('statistics-table') : null), 'the table');
    const cells = [...table.querySelectorAll('tbody td')].map((td) => td.textContent);
    expect(cells).toContain('Business sector');
    expect(cells).toContain('Company size');
    expect(cells).toContain('Not set');
    expect(cells).not.toContain('sector');
    expect(cells).not.toContain('size');
    expect(cells).not.toContain('none');
  });
});
