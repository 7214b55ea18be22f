import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { fake, type FakeCall } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { customerUser, lawyerUser, adminUser, sampleDetails } = await import('./fixtures');
const { default: Conversation } = await import('./Conversation');
const { default: CaseNotes } = await import('./CaseNotes');
const { default: CaseRating } = await import('./CaseRating');

const warning = vi.fn();
const page = pageTests({ warning });
const contactUser = { email: 'k@example.com', id: 11, is_staff: false, user_type: 4, full_name: 'Kalle Kontakt', uid: 'con-1', image: 'not set' };

const msg = (i: number, by = 'law-1', read = false) => ({
  id: `m${i}`,
  case_uid: 'case-1',
  by,
  by_name: by === 'law-1' ? 'Lars Jurist' : 'Cee Kund',
  side: by === 'law-1' ? 'lawyer' : 'customer',
  text: `Message ${i}`,
  attachment: null,
  at: new Date(Date.UTC(2026, 10, 1, 10, i)).toISOString(),
  read_by_other: read,
});
const page1 = (over: object = {}) => ({ messages: [msg(21), msg(22, 'cust-1', true), msg(23, 'cust-1')], older: 'cursor-20', can_write: true, cannot_write_because: null, ...over });
const page0 = { messages: [msg(1), msg(2)], older: null, can_write: true, cannot_write_because: null };

const calls = (method: string, path: string) => fake.calls.filter((c: FakeCall) => c.method === method && c.path === path);
const texts = () => [...document.querySelectorAll('[data-testid="conversation-text"]')].map((e) => e.textContent);

/** Type into a textarea (the shared helper types into inputs). */
async function typeArea(el: HTMLElement | null, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  await act(async () => {
    setter.call(el, value);
    el!.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** A component at a role's case details path (it reads its role from the path). */
function at(path: string, element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  return <RouterProvider router={router} />;
}

describe('conversation panel', { timeout: 180_000 }, () => {
  it('newest at the bottom, older pages on request, read marks under own messages', async () => {
    const r = await page.mount(at('/user/cases/details/case-1', <Conversation caseUid="case-1" />), customerUser, {
      'GET /message/': (c) => ({ status: 200, body: c.options?.queryParams?.before === 'cursor-20' ? page0 : page1() }),
    });
    await r.waitFor(() => texts().length === 3, 'the first page');
    expect(texts()).toEqual(['Message 21', 'Message 22', 'Message 23']);
    expect(calls('GET', '/message/')[0].options?.queryParams).toEqual({ case: 'case-1' });
    const statuses = [...document.querySelectorAll('[data-testid="conversation-status"]')].map((e) => [e.getAttribute('data-read'), e.textContent?.trim()]);
    expect(statuses).toEqual([
      ['true', 'Read'],
      ['false', 'Sent'],
    ]);
    const own = [...document.querySelectorAll('[data-testid="conversation-message"]')].map((e) => e.getAttribute('data-own'));
    expect(own).toEqual(['false', 'true', 'true']);
    expect(r.$('conversation-compose')).not.toBeNull();
    expect(r.$('conversation-read-only')).toBeNull();

    await r.click('conversation-older');
    await r.waitFor(() => texts().length === 5, 'the older page');
    expect(texts()).toEqual(['Message 1', 'Message 2', 'Message 21', 'Message 22', 'Message 23']);
    expect(calls('GET', '/message/').at(-1)!.options?.queryParams).toEqual({ case: 'case-1', before: 'cursor-20' });
    expect(r.$('conversation-older')).toBeNull();
    expect(r.$('conversation-start')).not.toBeNull();
  });

  it('scrolling to the top loads the older page', async () => {
    const r = await page.mount(at('/user/cases/details/case-1', <Conversation caseUid="case-1" />), customerUser, {
      'GET /message/': (c) => ({ status: 200, body: c.options?.queryParams?.before ? page0 : page1() }),
    });
    await r.waitFor(() => texts().length === 3, 'the first page');
    const list = r.$('conversation-list')!;
    await act(async () => {
      list.scrollTop = 0;
      list.dispatchEvent(new Event('scroll'));
    });
    await r.waitFor(() => texts().length === 5, 'the older page');
  });

  it('sends a message and shows it at the bottom', async () => {
    const r = await page.mount(at('/lawyer/cases/details/case-1', <Conversation caseUid="case-1" />), lawyerUser, {
      'GET /message/': () => ({ status: 200, body: page1() }),
      'POST /message/': (c) => ({ status: 201, body: { ...msg(24), text: (c.options?.body as { text: string }).text } }),
    });
    await r.waitFor(() => texts().length === 3, 'the first page');
    await typeArea(r.$('conversation-input'), '  Hej, vi ses på måndag.  ');
    await r.click('conversation-send');
    await r.waitFor(() => texts().length === 4, 'the sent message');
    expect(calls('POST', '/message/')[0].options?.body).toEqual({ case_uid: 'case-1', text: 'Hej, vi ses på måndag.' });
    expect(texts().at(-1)).toBe('Hej, vi ses på måndag.');
    expect((r.$('conversation-input') as HTMLTextAreaElement).value).toBe('');
  });

  it('refuses a file the documents would refuse, before any call', async () => {
    const r = await page.mount(at('/user/cases/details/case-1', <Conversation caseUid="case-1" />), customerUser, {
      'GET /message/': () => ({ status: 200, body: page1() }),
    });
    await r.waitFor(() => r.$('conversation-compose'), 'the compose box');
    const input = r.$('conversation-compose')!.querySelector<HTMLInputElement>('input[type="file"]')!;
    Object.defineProperty(input, 'files', { value: [new File(['x'], 'virus.exe')], configurable: true });
    await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
    await r.waitFor(() => r.$('conversation-errors'), 'the refusal');
    expect(r.$('conversation-file')).toBeNull();
    expect(calls('POST', '/message/file/upload-url/')).toHaveLength(0);
  });

  it.each([
    ['staff read with an explanation', '/admin/cases/details/case-1', adminUser, 'only_lawyer_or_customer_messages', 'Staff can read the conversation'],
    ['a closed case is read-only with the server reason', '/user/cases/details/case-1', customerUser, 'case_closed_for_messages', 'The case is closed and takes no more messages.'],
    ['a case not yet in progress', '/user/cases/details/case-1', customerUser, 'case_not_in_progress', 'Messages can be written while the case is in progress'],
    ['a contact without chat in cases', '/customer_contact/cases/details/case-1', contactUser, 'forbidden', 'Chat in cases'],
    ['a lawyer of another case', '/lawyer/cases/details/case-1', { ...lawyerUser, uid: 'law-2' }, 'case_not_assigned', 'The case is not assigned to you.'],
  ])('read-only: %s', async (_, path, user, because, text) => {
    const r = await page.mount(at(path, <Conversation caseUid="case-1" />), user, {
      'GET /message/': () => ({ status: 200, body: page1({ can_write: false, cannot_write_because: because }) }),
    });
    const alert = await r.waitFor(() => r.$('conversation-read-only'), 'the read-only note');
    expect(alert.textContent).toContain(text);
    expect(alert.getAttribute('data-reason')).toBe(because);
    expect(texts()).toHaveLength(3);
    expect(r.$('conversation-compose')).toBeNull();
  });

  it('a refused message goes through the one error mapping (spec §8)', async () => {
    const r = await page.mount(at('/user/cases/details/case-1', <Conversation caseUid="case-1" />), customerUser, {
      'GET /message/': () => ({ status: 200, body: page1() }),
      'POST /message/': () => ({ status: 400, body: { status: 400, message: 'case_closed_for_messages' } }),
    });
    await r.waitFor(() => r.$('conversation-input'), 'the input');
    await typeArea(r.$('conversation-input'), 'Hej');
    await r.click('conversation-send');
    await r.waitFor(() => warning.mock.calls.length > 0, 'the warning');
    expect(JSON.stringify(warning.mock.calls[0])).toContain('The case is closed and takes no more messages.');
    expect(texts()).toHaveLength(3);
  });
});

describe('notes and rating cards', { timeout: 180_000 }, () => {
  const closed = sampleDetails({ status: 'Complete' });

  it('notes: staff and the case lawyer see and add them; the customer side never', async () => {
    const r = await page.mount(at('/lawyer/cases/details/case-1', <CaseNotes c={closed} role="lawyer" />), lawyerUser, {
      'GET /case/lawyer/note/': () => ({ status: 200, body: [{ by: 'law-1', by_name: 'Lars Jurist', note: 'Ring hyresvärden', at: '2026-11-20T10:00:00Z' }] }),
      'POST /case/lawyer/note/': (c) => ({ status: 201, body: { by: 'law-1', by_name: 'Lars Jurist', note: (c.options?.body as { note: string }).note, at: '2026-11-21T10:00:00Z' } }),
    });
    await r.waitFor(() => document.querySelectorAll('[data-testid="case-note"]').length === 1, 'one note');
    await typeArea(r.$('case-note-input'), 'Skicka avtalet');
    await r.click('case-note-add');
    await r.waitFor(() => document.querySelectorAll('[data-testid="case-note"]').length === 2, 'two notes');
    expect(calls('POST', '/case/lawyer/note/')[0].options?.body).toEqual({ case_uid: 'case-1', note: 'Skicka avtalet' });
    const asked = calls('GET', '/case/lawyer/note/').length;

    for (const [path, user, role] of [
      ['/user/cases/details/case-1', customerUser, 'customer'],
      ['/customer_contact/cases/details/case-1', contactUser, 'customerContact'],
      ['/lawyer/cases/details/case-1', { ...lawyerUser, uid: 'law-2' }, 'lawyer'],
    ] as const) {
      const m = await page.mount(at(path, <div data-testid="host"><CaseNotes c={closed} role={role} /></div>), user);
      await m.waitFor(() => m.$('host'), 'host');
      expect(m.$('case-notes'), path).toBeNull();
    }
    expect(calls('GET', '/case/lawyer/note/')).toHaveLength(asked);
  });

  it('rating: the customer rates a closed case once, then sees the rating', async () => {
    const r = await page.mount(at('/user/cases/details/case-1', <CaseRating c={closed} role="customer" />), customerUser, {
      'POST /rating/create/': (c) => {
        const b = c.options?.body as { stars: number; comment: string };
        return { status: 201, body: { case_uid: 'case-1', case_number: '2026-000001', subject: 'Lease dispute', lawyer: 'law-1', lawyer_name: 'Lars Jurist', customer: 'cust-1', customer_name: 'Acme AB', stars: b.stars, comment: b.comment, at: '2026-11-23T10:00:00Z' } };
      },
    });
    await r.waitFor(() => r.$('case-rate-form'), 'the rating form');
    const stars = document.querySelectorAll<HTMLElement>('[data-testid="case-rate-stars"] li div[role="radio"]');
    expect(stars).toHaveLength(5);
    await act(async () => stars[3].click());
    await r.click('case-rate-submit');
    await r.waitFor(() => r.$('case-rating'), 'the rating');
    expect(calls('POST', '/rating/create/')[0].options?.body).toEqual({ case_uid: 'case-1', stars: 4, comment: '' });
    expect(r.$('case-rating-stars')?.getAttribute('data-stars')).toBe('4');
    expect(r.$('case-rate-form')).toBeNull();
  });

  it('rating: contacts and open cases show no rating form', async () => {
    const m = await page.mount(at('/customer_contact/cases/details/case-1', <div data-testid="host"><CaseRating c={closed} role="customerContact" /></div>), contactUser);
    await m.waitFor(() => calls('GET', '/rating/case/').length === 1, 'the rating call');
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(m.$('case-rate-form')).toBeNull();
    const open = await page.mount(at('/user/cases/details/case-1', <div data-testid="host"><CaseRating c={sampleDetails()} role="customer" /></div>), customerUser);
    await open.waitFor(() => open.$('host'), 'host');
    expect(open.$('case-rate-form')).toBeNull();
  });
});
