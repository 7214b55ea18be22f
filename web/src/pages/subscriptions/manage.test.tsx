import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';
import { defaultReportRange } from './SubscriptionModals';
import dayjs from 'dayjs';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const page = pageTests();
const sales = { email: 's@example.com', id: 7, is_staff: false, user_type: 2, uid: 'sp-1', full_name: 'Sam Sales' };

describe('Sales → manage packages', { timeout: 180_000 }, () => {
  it('names the customer and buys only after a confirmation naming customer, package and price', async () => {
    const r = await page.render('/sales/customer/manage/package/cu1/', sales, {
      'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
      'GET /customer/cu1/': () => ({ status: 200, body: { purchased_services: [], bisnode_account_active: false, bisnode_account: null } }),
      'GET /customer/details/cu1/': () => ({ status: 200, body: { uid: 'cu1', company_name: 'Acme AB', first_name: 'Anna', last_name: 'Ek' } }),
      'GET /packages/list/': () => ({ status: 200, body: [{ id: 5, name: 'Guld', hours: 10, price: 17500, duration_days: 365, public: true }] }),
      'GET /serviceplans/list/': () => ({ status: 200, body: [] }),
    });
    const heading = await r.waitFor(() => r.$('manage-customer-name'), 'the customer named');
    expect(heading.textContent).toContain('Acme AB');
    // Choose the package (the Select's value through its options list).
    const select = r.$('manage-package-select')!;
    const input = select.querySelector('input') ?? select;
    const { act } = await import('react');
    await act(async () => {
      input.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    const option = await r.waitFor(() => document.querySelector<HTMLElement>('.ant-select-item-option'), 'the package option');
    await act(async () => option.click());
    await r.click('manage-package-add');
    const dialog = await r.waitFor(() => document.querySelector('.ant-modal-confirm'), 'the confirmation');
    expect(dialog.textContent?.replace(/\s/g, ' ')).toMatch(/Guld.*Acme AB.*17 500,00 SEK|Guld.*Acme AB.*SEK 17,500\.00/);
    expect(fake.calls.some((c) => c.method === 'POST' && c.path === '/customer/purchase-services/')).toBe(false);
    const yes = await r.waitFor(() => document.querySelector<HTMLElement>('[data-testid="manage-confirm-yes"]'), 'yes');
    fake.replies.push(() => ({ status: 200, body: { id: 1 } }));
    await act(async () => yes.click());
    const call = await r.waitFor(() => fake.calls.find((c) => c.method === 'POST' && c.path === '/customer/purchase-services/'), 'the purchase');
    expect(call.options?.body).toEqual({ customer_uid: 'cu1', package_id: 5 });
  });

  it("the time report's range defaults to this month, not today to today", () => {
    const [from, to] = defaultReportRange(dayjs('2026-11-28T10:00:00'));
    expect(from.format('YYYY-MM-DD')).toBe('2026-11-01');
    expect(to.format('YYYY-MM-DD')).toBe('2026-11-30');
  });
});
