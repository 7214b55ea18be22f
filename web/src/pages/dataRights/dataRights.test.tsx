import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const { dayOf, sizeText } = await import('./ExportPanel');
const { inProgress } = await import('../../api/dataRights');
const { default: i18n } = await import('../../i18n');

const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, uid: 'adm-1', full_name: 'Ada Admin' };
const customer = { email: 'c@example.com', id: 7, is_staff: false, user_type: 3, full_name: 'Cee Kund', uid: 'cust-1', image: 'not set' };
const contactUser = { email: 'k@example.com', id: 8, is_staff: false, user_type: 4, full_name: 'Kalle Kontakt', uid: 'k-1', customer_id: 'cust-1', image: 'not set' };

const made = (over: Record<string, unknown>) => ({
  id: '20261129-x',
  customer_uid: 'cust-1',
  requested_by: 'cust-1',
  state: 'queued',
  step: 0,
  steps: 10,
  created_at: '2026-11-29T08:00:00Z',
  finished_at: null,
  expires_at: null,
  size: null,
  files: null,
  download_url: null,
  ...over,
});
const ready = made({ state: 'ready', step: 10, expires_at: '2026-12-06T08:01:00Z', size: 2_621_440, files: 3, download_url: 'https://s3.example/x.zip?X-Amz-Signature=s' });

const page = pageTests();
const exportCalls = (method: string) => fake.calls.filter((c) => c.method === method && c.path === '/customer/data-export/cust-1/');

describe('my data: the customer data export', { timeout: 180_000 }, () => {
  it('helpers: the day of a server time, sizes in the reader words, still being made', () => {
    expect(dayOf('2026-12-06T08:01:00Z')).toBe('2026-12-06');
    expect(dayOf(null)).toBe('');
    expect(sizeText(2_621_440, 'en')).toBe('2.5 MB');
    expect(sizeText(2_621_440, 'sv')).toBe('2,5 MB');
    expect(sizeText(512, 'en')).toBe('0.5 kB');
    expect([inProgress({ state: 'queued' }), inProgress({ state: 'running' }), inProgress({ state: 'ready' }), inProgress({ state: 'failed' })]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('the customer opens My data from the user menu, asks for an export, follows it and downloads it until its expiry', async () => {
    let list: unknown[] = [];
    fake.routes.set('GET /customer/data-export/cust-1/', () => ({ status: 200, body: list }));
    fake.routes.set('POST /customer/data-export/cust-1/', () => {
      list = [made({ state: 'running', step: 4 })];
      return { status: 202, body: made({}) };
    });
    const ui = await page.render('/user/', customer, {});
    await ui.click('user-menu');
    await ui.waitFor(() => document.querySelector('[data-testid="user-menu-my-data"]'), 'menu entry');
    await act(async () => (document.querySelector('[data-testid="user-menu-my-data"]') as HTMLElement).click());
    await ui.waitFor(() => ui.path() === '/user/my-data/', 'my data page');
    await ui.waitFor(() => ui.$('data-export-panel')?.textContent?.includes('No export has been requested'), 'empty list');
    expect(ui.$('page-title')?.textContent).toBe('My data');

    await ui.click('data-export-request');
    await ui.waitFor(() => ui.$('data-export-queued'), 'queued');
    expect(exportCalls('POST')).toHaveLength(1);
    expect((ui.$('data-export-request') as HTMLButtonElement).disabled).toBe(true);
    // Polled while it is being made: the progress moves, then the file is ready.
    await ui.waitFor(() => ui.$('data-export-running'), 'running');
    expect(ui.$('data-export-progress')?.textContent).toContain('40%');
    list = [ready];
    await ui.waitFor(() => ui.$('data-export-download'), 'ready');
    expect(ui.$('data-export-download')?.getAttribute('href')).toBe(ready.download_url);
    const text = ui.$('data-export-ready')!.textContent ?? '';
    expect(text).toContain('Can be downloaded until 2026-12-06');
    expect(text).toContain('2.5 MB');
    expect(text).toContain('3 files');
    expect((ui.$('data-export-request') as HTMLButtonElement).disabled).toBe(false);
  });

  it('in Swedish, and a second request while one runs says why', async () => {
    await i18n.changeLanguage('sv');
    try {
      fake.routes.set('GET /customer/data-export/cust-1/', () => ({ status: 200, body: [made({ state: 'failed' })] }));
      fake.routes.set('POST /customer/data-export/cust-1/', () => ({ status: 409, body: { message: 'export_running' } }));
      const ui = await page.render('/user/my-data/', customer, {});
      await ui.waitFor(() => ui.$('data-export-failed'), 'failed row');
      expect(ui.$('page-title')?.textContent).toBe('Mina uppgifter');
      expect(ui.$('data-export-failed')!.textContent).toContain('Misslyckades');
      await ui.click('data-export-request');
      await ui.waitFor(() => ui.$('data-export-error'), 'error');
      expect(ui.$('data-export-error')!.textContent).toContain('En export av kundens uppgifter pågår redan');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('a private customer is addressed as the person it is, a company as the company, in both languages', async () => {
    fake.routes.set('GET /customer/data-export/cust-1/', () => ({ status: 200, body: [] }));
    fake.routes.set('GET /customer/erasure/cust-1/', () => ({ status: 200, body: [] }));
    const ofType = (customer_type: string) => ({
      'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [], bisnode_account_active: false, bisnode_account: null, customer_type } }),
    });
    /** The page's text once its wording for `customer_type` shows (`marker`). */
    const pageText = async (customer_type: string, marker: string) => {
      const ui = await page.render('/user/my-data/', customer, ofType(customer_type));
      await ui.waitFor(() => ui.$('my-data-page')?.textContent?.includes(marker) && ui.$('erasure-panel'), marker, 60_000);
      const text = ui.$('my-data-page')!.textContent ?? '';
      await ui.unmount();
      return text;
    };
    const person = await pageText('Individual', 'everything we keep about you:');
    expect(person).not.toMatch(/compan/i);
    expect(person).toContain('your account and your profile, your contacts');
    const company = await pageText('Company', 'everything we keep about your company');
    expect(company).toContain("your account and the company's profile");
    await i18n.changeLanguage('sv');
    try {
      const personSv = await pageText('Individual', 'allt vi har sparat om dig:');
      for (const companyWords of ['företag', ' om er.', ' era filer', ' era uppgifter', ' ert konto', ' era ärenden', ' era kontaktpersoner']) {
        expect(personSv).not.toContain(companyWords);
      }
      for (const personWords of ['alla uppgifter om dig', 'dina uppgifter', 'ditt konto och din profil', 'dina ärenden', 'dina kontaktpersoner']) {
        expect(personSv).toContain(personWords);
      }
      const companySv = await pageText('Company', 'allt vi har sparat om ert företag');
      expect(companySv).toContain('ert konto och företagets profil');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('admin starts an export from the customer page; a contact has no My data', async () => {
    fake.routes.set('GET /customer/data-export/cust-1/', () => ({ status: 200, body: [] }));
    fake.routes.set('POST /customer/data-export/cust-1/', () => ({ status: 202, body: made({ requested_by: 'adm-1' }) }));
    const ui = await page.render('/admin/customers/details/cust-1', admin, {
      'GET /customer/details/cust-1/': () => ({ status: 200, body: { uid: 'cust-1', company_name: 'Kund AB', first_name: 'Cee', last_name: 'Kund', customer_type: 'Company' } }),
      'GET /customer/cust-1/': () => ({ status: 200, body: { purchased_services: [] } }),
    });
    await ui.waitFor(() => ui.$('data-export-request'), 'panel');
    expect(ui.$('data-export-panel')!.textContent).toContain('GDPR');
    await ui.click('data-export-request');
    await ui.waitFor(() => ui.$('data-export-queued'), 'queued');
    await ui.unmount();

    const c = await page.render('/customer_contact/my-data/', contactUser, {
      'GET /permission/': () => ({ status: 200, body: { permissions: ['view_contact'] } }),
    });
    await c.waitFor(() => c.path() !== '/customer_contact/my-data/' || c.$('not-found'), 'refused');
    expect(c.$('my-data-page')).toBeNull();
    await c.click('user-menu');
    await new Promise((r) => setTimeout(r, 200));
    expect(document.querySelector('[data-testid="user-menu-my-data"]')).toBeNull();
  });
});
