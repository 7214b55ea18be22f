import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fake, type FakeCall } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { sampleDetails } = await import('./fixtures');

const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };
const contact = { ...customer, user_type: 4, uid: 'cc-1', full_name: 'Cora Contact', customer_id: 'cust-1', company_id: 'cust-1' };
const cora = { uid: 'cc-1', name: 'Cora Contact' };
const kim = { uid: 'cc-2', name: 'Kim Kollega' };
const followers = (over: object = {}) => ({ followers: [], can_manage: true, following: false, candidates: [cora, kim], max: 25, ...over });

const warning = vi.fn();
const page = pageTests({ warning });

function render(path: string, user: object, list: () => object) {
  return page.render(path, user, {
    'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
    'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [], bisnode_account_active: false, bisnode_account: null } }),
    'GET /bubbles/': () => ({ status: 200, body: { pending_cases: 0, pending_customers: 0 } }),
    'GET /case/case-1/': () => ({ status: 200, body: sampleDetails() }),
    'GET /case/hour/list/': () => ({ status: 200, body: [] }),
    'GET /case/followers/case-1/': () => ({ status: 200, body: list() }),
  });
}

const calls = (method: string, path: string) => fake.calls.filter((c: FakeCall) => c.method === method && c.path === path);

describe('case followers', { timeout: 180_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the customer adds a contact by picking it and takes a follower off after confirming', async () => {
    let state = followers();
    const r = await render('/user/cases/details/case-1', customer, () => state);
    // The first page of the file loads every module: a longer limit.
    await r.waitFor(() => r.$('case-followers-empty'), 'no followers yet', 150_000);
    expect(r.$('case-followers')?.textContent).toContain('Followers');
    expect(r.$('case-follower-add')?.hasAttribute('disabled')).toBe(true);
    fake.routes.set('POST /case/followers/case-1/', () => {
      state = followers({ followers: [cora], candidates: [kim] });
      return { status: 201, body: cora };
    });
    const select = r.$('case-follower-pick')!.closest('.ant-select')!;
    await act(async () => {
      select.querySelector('.ant-select-selector, .ant-select-content, input')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    const option = await r.waitFor(
      () => [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === 'Cora Contact'),
      'Cora among the candidates',
    );
    await act(async () => option.click());
    await r.click('case-follower-add');
    await r.waitFor(() => r.$('case-follower-cc-1'), 'Cora follows');
    expect(calls('POST', '/case/followers/case-1/')[0].options?.body).toEqual({ user: 'cc-1' });
    expect(calls('POST', '/case/followers/case-1/')[0].options?.headers?.['Idempotency-Key']).toBeTruthy();

    fake.routes.set('DELETE /case/followers/case-1/cc-1/', () => {
      state = followers();
      return { status: 204 };
    });
    await r.click('case-follower-remove-cc-1');
    const ok = await r.waitFor(() => document.querySelector<HTMLElement>('[data-testid="case-follower-remove-confirm"]'), 'confirmation');
    await act(async () => ok.click());
    await r.waitFor(() => !r.$('case-follower-cc-1'), 'Cora taken off');
    expect(calls('DELETE', '/case/followers/case-1/cc-1/')).toHaveLength(1);
    // The confirmation's leave motion ends on a timer: within the test.
    await r.waitFor(() => !document.querySelector('.ant-popover:not(.ant-popover-hidden)'), 'the confirmation closed');
    await act(async () => {
      await new Promise((done) => setTimeout(done, 700));
    });
  });

  it('a follower sees no add form, stops following and, no longer seeing the case, lands on its case list', async () => {
    const r = await render('/customer_contact/cases/details/case-1', contact, () =>
      followers({ followers: [cora], can_manage: false, following: true, candidates: [] }),
    );
    await r.waitFor(() => r.$('case-follower-stop'), 'the stop button');
    expect(r.$('case-follower-pick')).toBeNull();
    expect(r.$('case-follower-cc-1')?.textContent).toContain('(you)');
    fake.routes.set('DELETE /case/followers/case-1/cc-1/', () => ({ status: 204 }));
    fake.routes.set('GET /case/list/', () => ({ status: 200, body: { results: [], next: null } }));
    fake.routes.set('GET /case/followers/case-1/', () => ({ status: 404, body: { status: 404, message: 'not_found' } }));
    await r.click('case-follower-stop');
    const ok = await r.waitFor(() => document.querySelector<HTMLElement>('[data-testid="case-follower-stop-confirm"]'), 'confirmation');
    await act(async () => ok.click());
    await r.waitFor(() => r.path() === '/customer_contact/cases/', 'the case list');
    expect(calls('DELETE', '/case/followers/case-1/cc-1/')).toHaveLength(1);
    // The confirmation's leave motion ends on a timer: within the test.
    await r.waitFor(() => !document.querySelector('.ant-popover:not(.ant-popover-hidden)'), 'the confirmation closed');
    await act(async () => {
      await new Promise((done) => setTimeout(done, 700));
    });
  });

  it('Swedish texts', async () => {
    const { default: i18n } = await import('../../i18n');
    await act(async () => {
      await i18n.changeLanguage('sv');
    });
    try {
      const r = await render('/user/cases/details/case-1', customer, () => followers({ followers: [kim] }));
      await r.waitFor(() => r.$('case-follower-cc-2'), 'Kim follows');
      expect(r.$('case-followers')?.textContent).toContain('Följare');
      expect(r.$('case-follower-add')?.textContent).toContain('Lägg till följare');
    } finally {
      await act(async () => {
        await i18n.changeLanguage('en');
      });
    }
  });
});
