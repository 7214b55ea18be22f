import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { filterOf, paramsOf } = await import('./AuditPage');
const { concerns, detailText } = await import('./AuditTable');
const { auditFileName } = await import('../../api/audit');
const { default: i18n } = await import('../../i18n');

const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, uid: 'adm-1', full_name: 'Ada Admin' };
const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };
const contactUser = { email: 'k@example.com', id: 8, is_staff: false, user_type: 4, full_name: 'Kalle Kontakt', uid: 'k-1', customer_id: 'cust-1', image: 'not set' };

const event = (over: Record<string, unknown>) => ({
  id: Math.random().toString(36).slice(2),
  at: '2026-11-20T09:30:00Z',
  action: 'case_viewed',
  actor_uid: 'law-1',
  actor_name: 'Lena Jurist',
  actor_role: 'lawyer',
  customer_uid: 'cust-1',
  subject: 'case-1',
  detail: 'A-2026-0042',
  ...over,
});

const page = pageTests();

/** The admin's area: the filters' look-ups answered, the trail's pages by `pages`. */
function adminReplies(pages: (q: Record<string, string>) => unknown) {
  return {
    'GET /customer/dropdown/list/': () => ({ status: 200, body: [{ uid: 'cust-1', label: 'Cee Kund', company_name: 'Kund AB', email: 'c@example.com' }] }),
    'GET /lawyer/dropdown/list/': () => ({ status: 200, body: [{ uid: 'law-1', full_name: 'Lena Jurist' }] }),
    'GET /account_manager/dropdown/list/': () => ({ status: 200, body: [{ uid: 'sp-1', first_name: 'Sam', last_name: 'Säljare', email: 's@example.com' }] }),
    'GET /customer/details/cust-1/': () => ({ status: 200, body: { uid: 'cust-1', company_name: 'Kund AB', first_name: 'Cee', last_name: 'Kund' } }),
    'GET /audit/': (c: { options?: { queryParams?: Record<string, string> } }) => ({ status: 200, body: pages(c.options?.queryParams ?? {}) }),
  };
}

const auditCalls = () => fake.calls.filter((c) => c.path === '/audit/').map((c) => c.options?.queryParams ?? {});

describe('audit trail pages', { timeout: 180_000 }, () => {
  it('the filter lives in the address: only well-formed days are read', () => {
    const f = filterOf(new URLSearchParams('customer=cust-1&user=&from=2026-11-01&to=nonsense&action=bogus'));
    expect(f).toEqual({ customer: 'cust-1', user: undefined, action: undefined, from: '2026-11-01', to: undefined });
    expect(filterOf(new URLSearchParams('action=conflict_search')).action).toBe('conflict_search');
    expect(paramsOf({ customer: 'cust-1', user: undefined, from: '2026-11-01', to: '' })).toEqual({ customer: 'cust-1', from: '2026-11-01' });
    expect(auditFileName(new Date('2026-11-29T10:00:00Z'))).toBe('audit-2026-11-29.csv');
  });

  it('says what an event concerns: a case by its number, a document with its case, nothing of a customer record', () => {
    expect(concerns(event({}) as never)).toBe('A-2026-0042');
    expect(concerns(event({ action: 'document_downloaded', subject: 'avtal.pdf' }) as never)).toBe('avtal.pdf · A-2026-0042');
    expect(concerns(event({ action: 'customer_viewed', subject: 'cust-1', detail: null }) as never)).toBe('');
    expect(concerns(event({ action: 'export_made', subject: 'statistic/account', detail: null }) as never)).toBe('statistic/account');
  });

  it('details read as words: changed fields and permissions by their labels, unknown words without underscores', () => {
    const tr = (key: string, fallback: string, vars?: Record<string, unknown>) => i18n.t(key, { defaultValue: fallback, ...vars });
    expect(detailText(event({ action: 'customer_changed', detail: 'company_name, email, new_field' }) as never, tr)).toBe('company name, e-mail, new field');
    expect(detailText(event({ action: 'permissions_changed', detail: 'add_case -> add_case view_contact' }) as never, tr)).toBe(
      'Create new cases → Create new cases, Administrate users',
    );
    expect(detailText(event({ action: 'permissions_changed', detail: ' -> view_bisnode' }) as never, tr)).toBe('– → Credit information');
    expect(detailText(event({ action: 'sign_in_failed', detail: 'too_many_attempts' }) as never, tr)).toBe('too many attempts');
    expect(detailText(event({}) as never, tr)).toBeNull();
    expect(detailText(event({ action: 'conflict_search', subject: 'Demo', detail: null, hits: 3 }) as never, tr)).toBe('3 possible conflicts');
    expect(detailText(event({ action: 'conflict_search', subject: 'Demo', detail: null, hits: 1 }) as never, tr)).toBe('1 possible conflict');
  });

  it("the retention job's events: what was erased and each run's figures, in both languages", () => {
    const run = event({ action: 'retention_run', actor_uid: '', actor_name: '', actor_role: null, customer_uid: null, subject: null, detail: 'due=3;erased=2;kept=1;failed=0' });
    const erased = event({ action: 'records_erased', actor_uid: '', actor_name: '', actor_role: null, subject: '2015-000012', detail: 'case_file' });
    for (const [lng, runText, erasedText] of [
      ['en', '3 due: 2 erased, 1 kept, 0 failed', 'case file'],
      ['sv', '3 att gallra: 2 raderade, 1 sparade, 0 misslyckade', 'ärendeakt'],
    ]) {
      const tr = (key: string, fallback: string, vars?: Record<string, unknown>) => i18n.t(key, { lng, defaultValue: fallback, ...vars });
      expect(detailText(run as never, tr)).toBe(runText);
      expect(detailText(erased as never, tr)).toBe(erasedText);
    }
    expect(concerns(erased as never)).toBe('2015-000012');
  });

  it('admin: Settings → Audit trail lists events translated, narrows by user and customer from a row, pages on, and exports the filter as CSV', async () => {
    const first = {
      results: [
        event({}),
        event({ action: 'sign_in_failed', actor_uid: 'cust-1', actor_name: 'Cee Kund', actor_role: 'customer', subject: null, detail: 'wrong_password' }),
      ],
      next: 'cursor-2',
      customers: { 'cust-1': 'Kund AB' },
    };
    const second = {
      results: [
        event({ action: 'export_made', subject: 'statistic/account', customer_uid: null, detail: null }),
        event({ action: 'records_erased', actor_uid: '', actor_name: '', actor_role: null, subject: '2015-000012', detail: 'case_file' }),
      ],
      next: null,
      customers: {},
    };
    const ui = await page.render('/admin/settings/audit/', admin, adminReplies((q) => (q.cursor === 'cursor-2' ? second : first)));
    const { $, waitFor, click, path } = ui;
    await waitFor(() => $('audit-row-sign_in_failed'), 'rows');
    expect($('page-title')?.textContent).toBe('Audit trail');
    const text = $('audit-table')!.textContent ?? '';
    expect(text).toContain('Case opened');
    expect(text).toContain('Failed sign-in');
    expect(text).toContain('wrong password');
    expect(text).toContain('Lawyer');
    expect(text).toContain('Kund AB');
    expect($('audit-case-link')?.getAttribute('href')).toBe('/admin/cases/details/case-1');

    await click('audit-pager-next');
    await waitFor(() => $('audit-row-export_made'), 'second page');
    expect(auditCalls().at(-1)).toEqual({ cursor: 'cursor-2' });
    const erasedRow = $('audit-row-records_erased')!.textContent ?? '';
    for (const words of ['Erased after retention', 'The retention job', '2015-000012', 'case file']) expect(erasedRow).toContain(words);

    // Narrow to the lawyer of a row: the address says so and page 1 is read with it.
    await click('audit-pager-previous');
    await waitFor(() => $('audit-row-case_viewed'), 'first page again');
    await act(async () => (document.querySelector('[data-testid="audit-row-case_viewed"] [data-testid="audit-only-user"]') as HTMLElement).click());
    await waitFor(() => path() === '/admin/settings/audit/' && ui.location().search === '?user=law-1', 'user filter in the address');
    await waitFor(() => auditCalls().some((q) => q.user === 'law-1' && !q.cursor), 'read by user');
    await act(async () => (document.querySelector('[data-testid="audit-row-case_viewed"] [data-testid="audit-only-customer"]') as HTMLElement).click());
    await waitFor(() => auditCalls().some((q) => q.user === 'law-1' && q.customer === 'cust-1'), 'read by user and customer');

    // The export asks the server's CSV for the same filter, in the interface's language.
    fake.routes.set('GET /audit/csv/', () => ({ status: 200, body: new Blob(['Time (UTC),Action\n']) }));
    const created = vi.fn(() => 'blob:x');
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: revoke });
    await click('audit-export');
    await waitFor(() => fake.calls.find((c) => c.path === '/audit/csv/'), 'export call');
    expect(fake.calls.find((c) => c.path === '/audit/csv/')?.options?.queryParams).toEqual({ user: 'law-1', customer: 'cust-1', lang: 'en' });
    await waitFor(() => created.mock.calls.length > 0, 'file saved');

    await click('audit-clear');
    await waitFor(() => ui.location().search === '', 'filters cleared');
  });

  it('admin in Swedish: events, roles and headings in Swedish', async () => {
    await i18n.changeLanguage('sv');
    try {
      const ui = await page.render('/admin/settings/audit/', admin, adminReplies(() => ({ results: [event({ action: 'subscription_changed', detail: 'activated', subject: '12' })], next: null })));
      await ui.waitFor(() => ui.$('audit-row-subscription_changed'), 'row');
      const text = ui.$('audit-table')!.textContent ?? '';
      expect(ui.$('page-title')?.textContent).toBe('Granskningslogg');
      expect(text).toContain('Abonnemang ändrat');
      expect(text).toContain('Jurist');
      expect(text).toContain('aktiverat');
      expect(text).toContain('Händelse');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('the customer reaches its own view from the user menu and reads only audit/mine/', async () => {
    fake.routes.set('GET /audit/mine/', () => ({
      status: 200,
      body: { results: [event({ action: 'document_downloaded', subject: 'avtal.pdf' })], next: null },
    }));
    const ui = await page.render('/user/', customer, {});
    await ui.click('user-menu');
    await ui.waitFor(() => document.querySelector('[data-testid="user-menu-own-audit"]'), 'menu entry');
    await act(async () => (document.querySelector('[data-testid="user-menu-own-audit"]') as HTMLElement).click());
    await ui.waitFor(() => ui.path() === '/user/access-log/', 'own page');
    await ui.waitFor(() => ui.$('audit-row-document_downloaded'), 'row');
    expect(ui.$('audit-table')!.textContent).toContain('avtal.pdf · A-2026-0042');
    expect(ui.$('audit-only-user')).toBeNull();
    expect(fake.calls.some((c) => c.path === '/audit/')).toBe(false);
  });

  it('a customer contact has no access log: neither the entry nor the route', async () => {
    const ui = await page.render('/customer_contact/access-log/', contactUser, {
      'GET /permission/': () => ({ status: 200, body: { permissions: ['view_contact'] } }),
    });
    await ui.waitFor(() => ui.path() !== '/customer_contact/access-log/' || ui.$('not-found'), 'refused');
    await ui.click('user-menu');
    await new Promise((r) => setTimeout(r, 200));
    expect(document.querySelector('[data-testid="user-menu-own-audit"]')).toBeNull();
    expect(fake.calls.some((c) => c.path === '/audit/mine/')).toBe(false);
  });
});
