import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake, type FakeCall } from '../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../test/renderApp');
const { customerUser, lawyerUser, adminUser } = await import('../pages/cases/fixtures');
const { notificationPollMs, POLL_STORAGE_KEY, refreshCounts, getCounts, dropdownOpened } = await import('../api/notificationCounts');
const { headerDropdowns } = await import('./NotificationDropdown');
const { notificationTarget } = await import('../components/collaboration/notificationView');

const page = pageTests();
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const messageItem = {
  id: 'n1',
  verb: 'message_received',
  params: { case_number: '2026-000001', subject: 'Lease dispute', actor: 'Lars Jurist', excerpt: 'Hej! Kan vi ses?' },
  timestamp: minutesAgo(3),
  unread: true,
  description: 'message',
  uid: 'case-1',
};
const caseItem = { ...messageItem, id: 'n2', verb: 'hours_logged', params: { case_number: '2026-000001', actor: 'Lars Jurist' }, description: 'case', unread: false };
const otherItem = { id: 'n3', verb: 'subscription_expiring', params: { service: 'Consultancy', date: '2026-12-01' }, timestamp: minutesAgo(60 * 26), unread: true, description: 'others', uid: null };

const calls = (method: string, path: string) => fake.calls.filter((c: FakeCall) => c.method === method && c.path === path);
const badge = (r: { $: (id: string) => HTMLElement | null }, kind: string) => r.$(`header-${kind}-badge`)?.getAttribute('data-count');

/** A fake route whose reply waits until `release()`: an answer still on its way. */
function heldReply(reply: { status: number; body: unknown }) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((res) => (release = res));
  return {
    route: async () => {
      await released;
      return reply;
    },
    release: () => release(),
  };
}

function customerReplies(counts: { message: number; others: number }) {
  return {
    'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
    'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [], bisnode_account_active: false, bisnode_account: null } }),
    'GET /notification/seen/count/': (c: FakeCall) => ({ status: 200, body: { count: c.options?.queryParams?.description === 'message' ? counts.message : counts.others } }),
    'GET /notification/': (c: FakeCall) => ({
      status: 200,
      // Times relative to the call, so a slow run still reads "3 minutes ago".
      body: {
        results: c.options?.queryParams?.description === 'message' ? [{ ...messageItem, timestamp: minutesAgo(3) }] : [caseItem, { ...otherItem, timestamp: minutesAgo(60 * 26) }],
        more: false,
      },
    }),
  };
}

describe('header dropdowns', { timeout: 180_000 }, () => {
  it('roles: messages not for admin or sales, notifications not for admin (spec §2)', () => {
    expect(headerDropdowns('admin')).toEqual([]);
    expect(headerDropdowns('sales')).toEqual(['notifications']);
    expect(headerDropdowns('lawyer')).toEqual(['messages', 'notifications']);
    expect(headerDropdowns('customer')).toEqual(['messages', 'notifications']);
    expect(headerDropdowns('customerContact')).toEqual(['messages', 'notifications']);
  });

  it('the polling interval is 90 s unless localStorage says otherwise (tests, without a rebuild)', () => {
    localStorage.removeItem(POLL_STORAGE_KEY);
    expect(notificationPollMs()).toBe(90_000);
    localStorage.setItem(POLL_STORAGE_KEY, '1500');
    expect(notificationPollMs()).toBe(1500);
    localStorage.setItem(POLL_STORAGE_KEY, 'soon');
    expect(notificationPollMs()).toBe(90_000);
    localStorage.removeItem(POLL_STORAGE_KEY);
  });

  it('a click leads to the case (a message at its conversation), others to the notifications page', () => {
    expect(notificationTarget('customer', messageItem as never)).toBe('/user/cases/details/case-1#conversation');
    expect(notificationTarget('lawyer', caseItem as never)).toBe('/lawyer/cases/details/case-1');
    expect(notificationTarget('customerContact', otherItem as never)).toBe('/customer_contact/notifications/');
    expect(notificationTarget('sales', otherItem as never)).toBeNull();
  });

  it('badges show the unseen counts; opening marks them seen (badge 0) and lists the newest 10', async () => {
    const r = await page.render('/user/', customerUser, customerReplies({ message: 3, others: 5 }));
    await r.waitFor(() => badge(r, 'messages') === '3', 'messages badge 3');
    await r.waitFor(() => badge(r, 'notifications') === '5', 'notifications badge 5');
    const list = calls('GET', '/notification/seen/count/').map((c) => c.options?.queryParams?.description).sort();
    expect(list).toEqual(['case,others', 'message']);

    // The count is drawn on the icon (a plain badge: the header loads no antd).
    expect(r.$('header-messages-badge')!.querySelector('sup')!.textContent).toBe('3');
    expect(r.$('header-notifications-badge')!.querySelector('sup')!.textContent).toBe('5');
    const button = r.$('header-messages')!;
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(button.getAttribute('aria-expanded')).toBe('false');

    await r.click('header-messages');
    await r.waitFor(() => document.querySelector('[data-testid="header-messages-item"]'), 'the message item');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(badge(r, 'messages')).toBe('0');
    // A count of 0 draws none.
    expect(r.$('header-messages-badge')!.querySelector('sup')).toBeNull();
    expect(badge(r, 'notifications')).toBe('5');
    const seen = calls('POST', '/notification/seen/update/');
    expect(seen.map((c) => c.options?.queryParams?.description)).toEqual(['message']);
    const get = calls('GET', '/notification/').at(-1)!;
    expect(get.options?.queryParams).toMatchObject({ offset: '0', limit: '10', ordering: '-timestamp', description: 'message' });
    const item = document.querySelector<HTMLElement>('[data-testid="header-messages-item"]')!;
    expect(item.textContent).toContain('Lars Jurist wrote in case 2026-000001');
    expect(item.textContent).toContain('Hej! Kan vi ses?');
    expect(item.textContent).toContain('3 minutes ago');
    expect(item.getAttribute('data-unread')).toBe('true');
    const dropdown = document.querySelector<HTMLElement>('[data-testid="header-messages-dropdown"]')!;
    expect(dropdown.style.width).toBe('300px');
    expect(document.querySelector<HTMLElement>('[data-testid="header-messages-list"]')!.style.maxHeight).toBe('400px');
  });

  it('a dialog under its button: Escape closes it (the focus back on the button), so does a press outside; each opening marks them seen', async () => {
    const r = await page.render('/user/', customerUser, customerReplies({ message: 2, others: 0 }));
    await r.waitFor(() => badge(r, 'messages') === '2', 'messages badge 2');
    const button = r.$('header-messages')!;
    // The panel opens in a portal, outside the page's container.
    const panel = () => document.querySelector('[data-testid="header-messages-dropdown"]');
    button.focus();
    // Enter clicks the button (a click of no pointer): the focus goes into the panel.
    await r.click('header-messages');
    const dialog = await r.waitFor(() => document.querySelector<HTMLElement>('[role="dialog"].notification-popover'), 'the dialog');
    expect(dialog.getAttribute('aria-label')).toBe('Messages');
    expect(button.getAttribute('aria-controls')).toBe(dialog.id);
    await r.waitFor(() => document.querySelector('[data-testid="header-messages-item"]'), 'the message item');
    await r.waitFor(() => document.activeElement === dialog, 'the focus in the dialog');
    await act(async () => {
      dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    });
    expect(panel()).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');

    await r.click('header-messages');
    await r.waitFor(() => panel(), 'opened again');
    await act(async () => {
      document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    });
    expect(panel()).toBeNull();
    expect(calls('POST', '/notification/seen/update/').map((c) => c.options?.queryParams?.description)).toEqual(['message', 'message']);
  });

  it('clicking an item marks it read, then opens the case at the conversation', async () => {
    const r = await page.render('/user/', customerUser, {
      ...customerReplies({ message: 1, others: 0 }),
      'PATCH /notification/n1/': () => ({ status: 200, body: { ...messageItem, unread: false } }),
    });
    await r.click('header-messages');
    const item = await r.waitFor(() => document.querySelector<HTMLElement>('[data-testid="header-messages-item"]'), 'the item');
    await act(async () => item.click());
    await r.waitFor(() => r.path() === '/user/cases/details/case-1', 'the case details path');
    expect(r.location().hash).toBe('#conversation');
    const patch = calls('PATCH', '/notification/n1/');
    expect(patch).toHaveLength(1);
    expect(patch[0].options?.body).toEqual({ unread: false });
  });

  it('an item that is not about a case opens the notifications page; a failed read stays', async () => {
    const r = await page.render('/user/', customerUser, {
      ...customerReplies({ message: 0, others: 2 }),
      'PATCH /notification/n3/': () => ({ status: 200, body: { ...otherItem, unread: false } }),
      'PATCH /notification/n2/': () => ({ status: 404, body: { status: 404, message: 'not_found' } }),
    });
    await r.click('header-notifications');
    await r.waitFor(() => document.querySelectorAll('[data-testid="header-notifications-item"]').length === 2, 'two items');
    const [hours, expiring] = document.querySelectorAll<HTMLElement>('[data-testid="header-notifications-item"]');
    expect(hours.getAttribute('data-unread')).toBe('false');
    expect(expiring.textContent).toContain('Consultancy expires on 2026-12-01');
    expect(expiring.textContent).toContain('a day ago');
    await act(async () => hours.click());
    await r.waitFor(() => calls('PATCH', '/notification/n2/').length === 1, 'the failed PATCH');
    expect(r.path()).toBe('/user/');
    await act(async () => expiring.click());
    await r.waitFor(() => r.path() === '/user/notifications/', 'the notifications page');
  });

  it('lawyers get both dropdowns; admin none; counts follow the server on refresh', async () => {
    const r = await page.render('/lawyer/', lawyerUser, { 'GET /notification/seen/count/': () => ({ status: 200, body: { count: 2 } }) });
    await r.waitFor(() => badge(r, 'messages') === '2', 'lawyer badge');
    fake.routes.set('GET /notification/seen/count/', () => ({ status: 200, body: { count: 7 } }));
    await act(async () => refreshCounts(['messages']));
    expect(getCounts().messages).toBe(7);
    const a = await page.render('/admin/', adminUser, { 'GET /bubbles/': () => ({ status: 200, body: { pending_cases: 0, pending_customers: 0 } }) });
    await a.waitFor(() => a.$('dashboard-page'), 'admin dashboard');
    expect(a.$('header-messages')).toBeNull();
    expect(a.$('header-notifications')).toBeNull();
  });

  it('a count asked for before the dropdown opened does not bring the badge back', async () => {
    const r = await page.render('/lawyer/', lawyerUser, { 'GET /notification/seen/count/': () => ({ status: 200, body: { count: 2 } }) });
    await r.waitFor(() => badge(r, 'messages') === '2', 'lawyer badge');
    const count = heldReply({ status: 200, body: { count: 3 } });
    fake.routes.set('GET /notification/seen/count/', count.route);
    let polled: Promise<void> = Promise.resolve();
    await act(async () => {
      polled = refreshCounts(['messages']);
    });
    await act(async () => dropdownOpened('messages'));
    expect(getCounts().messages).toBe(0);
    await act(async () => {
      count.release();
      await polled;
    });
    expect(getCounts().messages).toBe(0);
    // The next poll counts again.
    await act(async () => refreshCounts(['messages']));
    expect(getCounts().messages).toBe(3);
  });

  it("a count asked for while the opening's seen mark is on its way does not bring the badge back", async () => {
    const r = await page.render('/lawyer/', lawyerUser, { 'GET /notification/seen/count/': () => ({ status: 200, body: { count: 2 } }) });
    await r.waitFor(() => badge(r, 'messages') === '2', 'lawyer badge');
    // The server has not marked the opening seen yet: it still counts the two.
    const mark = heldReply({ status: 204, body: null });
    fake.routes.set('POST /notification/seen/update/', mark.route);
    let opened: Promise<void> = Promise.resolve();
    await act(async () => {
      opened = dropdownOpened('messages');
    });
    expect(getCounts().messages).toBe(0);
    // A poll asked and answered while the mark is on its way.
    await act(async () => refreshCounts(['messages']));
    expect(getCounts().messages).toBe(0);
    // A poll asked before the mark was answered and answered after it.
    const count = heldReply({ status: 200, body: { count: 2 } });
    fake.routes.set('GET /notification/seen/count/', count.route);
    let polled: Promise<void> = Promise.resolve();
    await act(async () => {
      polled = refreshCounts(['messages']);
    });
    await act(async () => {
      mark.release();
      await opened;
      count.release();
      await polled;
    });
    expect(getCounts().messages).toBe(0);
    expect(calls('POST', '/notification/seen/update/').map((c) => c.options?.queryParams?.description)).toEqual(['message']);
    // Once the server has marked them, polls count again: a new message shows.
    fake.routes.set('GET /notification/seen/count/', () => ({ status: 200, body: { count: 1 } }));
    await act(async () => refreshCounts(['messages']));
    expect(getCounts().messages).toBe(1);
  });

  it('shows Swedish texts and relative times in Swedish', async () => {
    const { default: i18n } = await import('../i18n');
    const { applyLanguage } = await import('../i18n');
    await applyLanguage('sv');
    try {
      const r = await page.render('/user/', customerUser, customerReplies({ message: 1, others: 0 }));
      await r.click('header-messages');
      const item = await r.waitFor(() => document.querySelector<HTMLElement>('[data-testid="header-messages-item"]'), 'the item');
      expect(item.textContent).toContain('Lars Jurist skrev i ärende 2026-000001');
      expect(item.textContent).toContain('3 minuter sedan');
    } finally {
      await applyLanguage('en');
      await i18n.changeLanguage('en');
    }
  });
});
