import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { default: i18n } = await import('../../i18n');

const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, uid: 'adm-1', full_name: 'Ada Admin' };
const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };

const request = (over: Record<string, unknown>) => ({
  id: 'e-1',
  customer_uid: 'cust-1',
  customer_name: 'Kund AB',
  state: 'pending',
  created_at: '2026-11-29T08:00:00Z',
  decided_at: null,
  decided_by: null,
  reason: null,
  kept: [],
  erased_at: null,
  ...over,
});
const kept = [
  { kind: 'case', reference: '2026-000001', until: null },
  { kind: 'case', reference: '2026-000002', until: '2036-05-01' },
  { kind: 'billing', reference: null, until: '2033-12-31' },
  { kind: 'audit_trail', reference: null, until: '2036-11-29' },
];

const page = pageTests();
const calls = (method: string, path: string) => fake.calls.filter((c) => c.method === method && c.path === path);

/** Clicks a button of a modal or pop-up (rendered outside the page's tree). */
async function press(testId: string) {
  const el = document.querySelector(`[data-testid="${testId}"]`) as HTMLElement | null;
  if (!el) throw new Error(`no ${testId}`);
  await act(async () => el.click());
}

describe('the right to be forgotten', { timeout: 180_000 }, () => {
  it('the customer reads what happens, confirms, and sees the request wait (no second one while it is open)', async () => {
    let list: unknown[] = [];
    fake.routes.set('GET /customer/data-export/cust-1/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /customer/erasure/cust-1/', () => ({ status: 200, body: list }));
    fake.routes.set('POST /customer/erasure/cust-1/', () => {
      list = [request({})];
      return { status: 201, body: request({}) };
    });
    const ui = await page.render('/user/my-data/', customer, {});
    await ui.waitFor(() => ui.$('erasure-panel')?.textContent?.includes('No request to be forgotten'), 'empty list', 60_000);
    const text = ui.$('erasure-panel')!.textContent ?? '';
    expect(text).toContain('ten years after the matter ends');
    expect(text).toContain('neither you nor your contacts can sign in');
    await ui.click('erasure-request');
    // Nothing is sent before the customer confirms.
    expect(calls('POST', '/customer/erasure/cust-1/')).toHaveLength(0);
    await ui.waitFor(() => document.querySelector('[data-testid="erasure-confirm"]'), 'the confirmation');
    await press('erasure-confirm');
    await ui.waitFor(() => ui.$('erasure-pending'), 'pending');
    expect(calls('POST', '/customer/erasure/cust-1/')).toHaveLength(1);
    expect(calls('POST', '/customer/erasure/cust-1/')[0].options?.headers?.['Idempotency-Key']).toBeTruthy();
    expect(ui.$('erasure-pending')!.textContent).toContain('Awaiting an administrator');
    expect((ui.$('erasure-request') as HTMLButtonElement).disabled).toBe(true);
  });

  it('in Swedish: a refusal with its reason, and what an approval kept and until when', async () => {
    await i18n.changeLanguage('sv');
    try {
      fake.routes.set('GET /customer/data-export/cust-1/', () => ({ status: 200, body: [] }));
      fake.routes.set('GET /customer/erasure/cust-1/', () => ({
        status: 200,
        body: [request({ id: 'e-2', state: 'approved', kept }), request({ state: 'refused', reason: 'Pågående tvist' })],
      }));
      const ui = await page.render('/user/my-data/', customer, {});
      await ui.waitFor(() => ui.$('erasure-refused'), 'refused row');
      expect(ui.$('erasure-reason')!.textContent).toBe('Skäl: Pågående tvist');
      const approved = ui.$('erasure-approved')!.textContent ?? '';
      expect(approved).toContain('Ärende 2026-000001: tio år efter att ärendet avslutats');
      expect(approved).toContain('Ärende 2026-000002: till och med 2036-05-01');
      expect(approved).toContain('Bokföringen: till och med 2033-12-31');
      expect(approved).toContain('Granskningsloggen: till och med 2036-11-29');
      expect(ui.$('page-title')?.textContent).toBe('Mina uppgifter');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('admin lists the requests by state, approves one and refuses another with a reason', async () => {
    const rows = [
      { kind: 'erasure', id: 'e-1', customer_uid: 'cust-1', customer_name: 'Kund AB', state: 'pending', created_at: '2026-11-29T08:00:00Z', done_at: null, reason: null },
      { kind: 'erasure', id: 'e-2', customer_uid: 'cust-2', customer_name: 'Bygg AB', state: 'pending', created_at: '2026-11-28T08:00:00Z', done_at: null, reason: null },
      { kind: 'export', id: 'x-1', customer_uid: 'cust-1', customer_name: 'Kund AB', state: 'ready', created_at: '2026-11-27T08:00:00Z', done_at: '2026-11-27T08:01:00Z', reason: null },
      { kind: 'erasure', id: 'e-0', customer_uid: 'cust-0', customer_name: '[raderad] [raderad]', state: 'erased', created_at: '2026-11-26T08:00:00Z', done_at: '2026-11-26T09:00:00Z', reason: null },
      { kind: 'erasure', id: 'e-9', customer_uid: 'cust-9', customer_name: 'Tvist AB', state: 'refused', created_at: '2026-11-25T08:00:00Z', done_at: '2026-11-25T09:00:00Z', reason: 'Pågående tvist i ärendet' },
    ];
    fake.routes.set('GET /data-requests/', () => ({ status: 200, body: { results: rows, next: null } }));
    fake.routes.set('POST /customer/erasure/cust-1/e-1/decide/', () => ({ status: 200, body: request({ state: 'erased' }) }));
    fake.routes.set('POST /customer/erasure/cust-2/e-2/decide/', () => ({ status: 200, body: request({ id: 'e-2', state: 'refused' }) }));
    const ui = await page.render('/admin/customers/data-requests/', admin, {});
    await ui.waitFor(() => ui.$('request-approve-e-1'), 'the list');
    expect(ui.$('page-title')?.textContent).toBe('Data requests');
    expect(ui.$('data-requests-page')!.textContent).toContain('Bygg AB');
    // An erased customer's neutral names read as one translated text.
    expect(ui.$('data-requests-page')!.textContent).not.toContain('[raderad]');
    expect(ui.$('data-requests-page')!.textContent).toContain('Erased customer');
    expect(ui.$('request-approve-x-1')).toBeNull();
    // A refusal's reason sits with the request's state (a phone's card shows it under the state, across the card), not under its actions.
    const reason = ui.$('request-reason-e-9')!;
    expect(reason.textContent).toBe('Reason: Pågående tvist i ärendet');
    const cell = reason.closest('td')!;
    expect(cell.getAttribute('data-label')).toBe('Status');
    expect(cell.className).toContain('cell-with-note');
    expect(cell.contains(ui.$('request-state-e-9'))).toBe(true);
    const actions = [...reason.closest('tr')!.querySelectorAll('td')].find((td) => td.getAttribute('data-label') === 'Actions')!;
    expect(actions.textContent).toBe('');
    expect(actions.className).toContain('cell-empty');
    expect(ui.$('request-approve-e-1')!.closest('td')!.className).not.toContain('cell-empty');

    // The filter is the address's.
    const ui2 = await page.render('/admin/customers/data-requests/?status=pending', admin, {});
    await ui2.waitFor(() => ui2.$('request-approve-e-1'), 'the filtered list');
    expect(calls('GET', '/data-requests/').at(-1)?.options?.queryParams).toEqual({ status: 'pending' });

    await ui2.click('request-approve-e-1');
    await ui2.waitFor(() => document.querySelector('[data-testid="request-approve-confirm"]'), 'the confirmation');
    await press('request-approve-confirm');
    await ui2.waitFor(() => calls('POST', '/customer/erasure/cust-1/e-1/decide/').length === 1, 'approved');
    expect(calls('POST', '/customer/erasure/cust-1/e-1/decide/')[0].options?.body).toEqual({ approve: true, reason: null });

    await ui2.click('request-refuse-e-2');
    const area = (await ui2.waitFor(() => document.querySelector('[data-testid="request-refuse-reason"]'), 'reason')) as HTMLTextAreaElement;
    expect((document.querySelector('[data-testid="request-refuse-confirm"]') as HTMLButtonElement).disabled).toBe(true);
    expect(area.maxLength).toBe(1000);
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    await act(async () => {
      setter.call(area, 'Pågående tvist');
      area.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await press('request-refuse-confirm');
    await ui2.waitFor(() => calls('POST', '/customer/erasure/cust-2/e-2/decide/').length === 1, 'refused');
    expect(calls('POST', '/customer/erasure/cust-2/e-2/decide/')[0].options?.body).toEqual({ approve: false, reason: 'Pågående tvist' });
  });

  it('a frozen case shows its banner to staff and offers no change', async () => {
    const c = {
      uid: 'case-1', case_number: '2026-000001', status: 'Inprogress', customer: 'cust-1', customer_name: '[raderad]', subject: 'Tvist',
      description: '', type: 1, estimated_hours: 1, client: '', lawyer: 'l-1', lawyer_name: 'Lars', files: [], counterpart: '',
      disqualification_control: false, short_internal_description: '', start_date: null, deadline: null, contact_person: '', note: '',
      created_by: 'x', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', address: { address_1: '', address_2: '', city: '', post_code: '', country: 'Sweden' },
      actions: [], can_edit: false, can_enter_hours: false, legal_hold: { since: '2026-11-29T08:00:00Z', until: '2036-11-29' },
    };
    const ui = await page.render('/admin/cases/details/case-1/', admin, {
      'GET /case/case-1/': () => ({ status: 200, body: c }),
      'GET /case/hour/list/': () => ({ status: 200, body: [] }),
    });
    await ui.waitFor(() => ui.$('case-legal-hold'), 'the banner');
    expect(ui.$('case-legal-hold')!.textContent).toContain('kept by law until 2036-11-29');
    expect(ui.$('case-edit')).toBeNull();
  });
});
