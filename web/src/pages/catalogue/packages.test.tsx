import { describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { fake } from '../../test/amplifyFake';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../../test/renderApp');
const page = pageTests();
const admin = { email: 'a@example.com', id: 1, is_staff: true, user_type: null, uid: 'adm-1', full_name: 'Ada Admin' };

describe('Settings → packages', { timeout: 180_000 }, () => {
  it('a new package is not public unless admin switches it on', async () => {
    const r = await page.render('/admin/settings/packages/create/', admin, {
      'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
    });
    const toggle = await r.waitFor(() => r.$('package-public'), 'the public switch');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await r.type('package-name', 'Prov');
    await r.type('package-hours', '2');
    await r.type('package-price', '100');
    fake.replies.push(() => ({ status: 201, body: { id: 9, name: 'Prov', hours: 2, price: 100, duration_days: 365, public: false } }));
    await r.click('package-submit');
    const call = await r.waitFor(() => fake.calls.find((c) => c.method === 'POST' && c.path === '/packages/'), 'the create call');
    expect((call.options?.body as Record<string, unknown>).public).toBe(false);
  });

  it('the list edits with the stored values, retires after a yes, and deletes only what was never bought', async () => {
    const rows = [
      { id: 1, name: 'Bas 10 h', hours: 10.5, price: 17500.5, duration_days: 365, public: true, retired: false, bought: true },
      { id: 2, name: 'Fel', hours: 1, price: 1, duration_days: 1, public: false, retired: false, bought: false },
    ];
    const r = await page.render('/admin/settings/packages/', admin, {
      'GET /permission/': () => ({ status: 200, body: { permissions: [] } }),
      'GET /packages/list/': () => ({ status: 200, body: rows }),
    });
    await r.waitFor(() => r.$('package-row-1'), 'the package rows');
    const doc = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    // A bought package cannot be deleted, only retired; a never bought one can.
    expect((r.$('offer-delete-1') as HTMLButtonElement).disabled).toBe(true);
    expect((r.$('offer-delete-2') as HTMLButtonElement).disabled).toBe(false);
    expect(r.$('package-row-1')?.textContent).toContain('Bought');
    expect(r.$('package-row-2')?.textContent).toContain('Not public');

    // Edit opens with the row's values (Swedish decimals), and saves them back.
    await r.click('offer-edit-1');
    const name = await r.waitFor(() => doc('package-name') as HTMLInputElement | null, 'the edit dialog');
    expect(name.value).toBe('Bas 10 h');
    expect((doc('package-hours') as HTMLInputElement).value).toBe('10,5');
    expect((doc('package-price') as HTMLInputElement).value).toBe('17500,5');
    fake.replies.push(() => ({ status: 200, body: { ...rows[0], price: 18000 } }));
    await act(async () => doc('offer-edit-save')!.click());
    const put = await r.waitFor(() => fake.calls.find((c) => c.method === 'PUT' && c.path === '/packages/1/'), 'the update call');
    expect(put.options?.body).toMatchObject({ name: 'Bas 10 h', hours: '10.5', price: '17500.5', duration_days: 365, public: true });

    // Retire asks first, then calls.
    await r.click('offer-retire-1');
    const yes = await r.waitFor(() => doc('offer-confirm-yes'), 'the retire confirmation');
    expect(document.body.textContent).toContain('Retire the package Bas 10 h?');
    expect(fake.calls.some((c) => c.path === '/packages/1/retire/')).toBe(false);
    fake.replies.push(() => ({ status: 200, body: { ...rows[0], retired: true } }));
    await act(async () => yes.click());
    const retire = await r.waitFor(() => fake.calls.find((c) => c.method === 'POST' && c.path === '/packages/1/retire/'), 'the retire call');
    expect(retire.options?.body).toEqual({ retired: true });
  });
});
