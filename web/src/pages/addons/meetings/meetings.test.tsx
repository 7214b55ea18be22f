import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../../test/amplifyFake';
import en from './locales/en.json';
import sv from './locales/sv.json';
import { fromStockholm, stockholm } from './time';
import dayjs from 'dayjs';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../../test/renderApp');
const session = await import('../../../store/session');

const customer = { email: 'c@example.com', id: 7, uid: 'cust-1', is_staff: false, user_type: 3, full_name: 'Cee' };
const contact = { email: 'k@example.com', id: 8, uid: 'con-1', is_staff: false, user_type: 4, full_name: 'Kay', customer_id: 'cust-1', company_id: 'cust-1' };
const lawyer = { email: 'l@example.com', id: 9, uid: 'law-1', is_staff: false, user_type: 1, full_name: 'Lena Jurist' };
const page = pageTests();

const row = (serviceId: number) => ({ id: 1, service: { id: serviceId, name: 'x' }, expired: false, status: 'Active' });
const later = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const meeting = {
  uid: 'm1',
  slot_uid: 's1',
  lawyer_uid: 'law-1',
  lawyer_name: 'Lena Jurist',
  customer_uid: 'cust-1',
  customer_name: 'Kund Demo AB',
  case_uid: 'case-1',
  case_number: '2026-000007',
  subject: 'Hyresavtal',
  start: later(26),
  minutes: 45,
  room_url: 'https://meet.example.test/room-1',
  booked_by_name: 'Cee',
};
const slot = { uid: 's2', lawyer_uid: 'law-1', lawyer_name: 'Lena Jurist', start: later(50), minutes: 30, meeting: null };

function open(path: string, user: object, rows: unknown[], meetings: unknown[] = []) {
  session.setState({ permission: [] as never });
  return page.render(path, user, {
    'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: rows, bisnode_account_active: false, bisnode_account: null } }),
    'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
    'GET /services/video-meeting/': () => ({ status: 200, body: meetings }),
    'GET /services/video-meeting/cases/': () => ({
      status: 200,
      body: [{ uid: 'case-1', case_number: '2026-000007', subject: 'Hyresavtal', lawyer_uid: 'law-1', lawyer_name: 'Lena Jurist' }],
    }),
    'GET /services/video-meeting/cases/case-1/slots/': () => ({ status: 200, body: [slot] }),
    // The figures around the meetings card (they come with it): none of the role's, here.
    'GET /dashboard/': () => ({ status: 200, body: { role: 'none' } }),
    'GET /lawyer/video-meetings/': () => ({ status: 200, body: [{ ...slot, uid: 's1', start: meeting.start, minutes: 45, meeting }, slot] }),
  });
}

describe('video meetings', { timeout: 180_000 }, () => {
  it('without the plan, customer and contact see the promotion and nothing is asked', async () => {
    for (const [path, user] of [
      ['/user/services/video-meeting/', customer],
      ['/customer_contact/services/video-meeting/', contact],
    ] as const) {
      const { $, waitFor } = await open(path, user, [row(2)]);
      await waitFor(() => $('service-promotion'), 'promotion');
      expect(fake.calls.some((c) => c.path.startsWith('/services/video-meeting/'))).toBe(false);
    }
  });

  it('the customer picks the case, books a free time and sees the meeting with its link', async () => {
    const { $, waitFor, click, container } = await open('/user/services/video-meeting/', customer, [row(6)]);
    // The only case is chosen at once; its lawyer's free times follow.
    await waitFor(() => $('meeting-book-s2'), 'free time');
    expect(container.textContent).toContain(stockholm(slot.start));
    fake.routes.set('POST /services/video-meeting/', () => ({ status: 201, body: meeting }));
    fake.routes.set('GET /services/video-meeting/', () => ({ status: 200, body: [meeting] }));
    await click('meeting-book-s2');
    await waitFor(() => $('meeting-link-m1'), 'meeting link');
    const post = fake.calls.find((c) => c.method === 'POST' && c.path === '/services/video-meeting/');
    expect(post?.options?.body).toMatchObject({ case_uid: 'case-1', slot_uid: 's2' });
    // Booked once: the booking carries its Idempotency-Key (a quoted string, as the IETF draft writes it; a retry
    // repeats it), no request_id in the body.
    expect(String(post?.options?.headers?.['Idempotency-Key'])).toMatch(/^"[0-9a-f-]{32,36}"$/);
    expect($('meeting-link-m1')?.getAttribute('href')).toBe('https://meet.example.test/room-1');
    expect($('meeting-cancel-m1')).not.toBeNull();
  });

  it('a time someone else just took shows the server message and the times again', async () => {
    const { $, waitFor, click, container } = await open('/customer_contact/services/video-meeting/', contact, [row(6)]);
    await waitFor(() => $('meeting-book-s2'), 'free time');
    fake.routes.set('POST /services/video-meeting/', () => ({ status: 400, body: { status: 400, message: 'slot_taken', errors: {} } }));
    await click('meeting-book-s2');
    await waitFor(() => $('meeting-error'), 'error');
    expect(container.textContent).toContain('The time is not free.');
  });

  it("the lawyer's list shows booked and free times, the customer, the case and the link", async () => {
    const { $, waitFor, container } = await open('/lawyer/video-meetings/', lawyer, []);
    await waitFor(() => $('lawyer-slot-list') && $('slot-link-s1'), 'slot list');
    expect(container.textContent).toContain('Kund Demo AB');
    expect(container.textContent).toContain('2026-000007 · Hyresavtal');
    expect($('slot-cancel-s1')).not.toBeNull();
    expect($('slot-remove-s2')).not.toBeNull();
    expect($('slot-cancel-s2')).toBeNull();
  });

  it("both dashboards list the upcoming meetings with a link to the list", async () => {
    const l = await open('/lawyer/', lawyer, []);
    await l.waitFor(() => l.$('dashboard-meeting-m1'), 'lawyer card');
    expect(l.$('dashboard-meetings-all')?.getAttribute('href')).toBe('/lawyer/video-meetings/');
    const c = await open('/user/', customer, [row(6)], [meeting]);
    await c.waitFor(() => c.$('dashboard-meeting-m1'), 'customer card');
    expect(c.$('dashboard-meetings-all')?.getAttribute('href')).toBe('/user/services/video-meeting/');
    expect(c.container.textContent).toContain('Lena Jurist');
    // A contact's menu has no meetings page: its card lists the meetings without a link to one.
    const k = await open('/customer_contact/', contact, [row(6)], [meeting]);
    await k.waitFor(() => k.$('dashboard-meeting-m1'), 'contact card');
    expect(k.$('dashboard-meetings-all')).toBeNull();
  });

  it('times are Swedish time both ways, summer and winter', () => {
    expect(stockholm('2026-11-24T08:00:00Z')).toBe('2026-11-24 09:00');
    expect(stockholm('2026-07-01T08:00:00Z')).toBe('2026-07-01 10:00');
    expect(fromStockholm(dayjs('2026-11-24T09:00:00'))).toBe('2026-11-24T08:00:00Z');
    expect(fromStockholm(dayjs('2026-07-01T10:30:00'))).toBe('2026-07-01T08:30:00Z');
  });

  it('Swedish and English have the same keys, none empty', () => {
    const keys = (o: Record<string, unknown>, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
    expect(keys(sv).sort()).toEqual(keys(en).sort());
    for (const texts of [en, sv]) for (const k of keys(texts)) expect(String(k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], texts)).trim()).not.toBe('');
  });
});
