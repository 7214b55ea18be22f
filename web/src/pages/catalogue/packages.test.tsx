import { describe, expect, it, vi } from 'vitest';
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
});
