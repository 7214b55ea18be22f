/**
 * Route chunks fetched ahead of the click: the page
 * registry (app/pages.tsx) knows every lazy page's import, and the side menu
 * hands an entry to `onPrefetch` when it is hovered or focused.
 */
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../test/renderApp');
const { adminUser } = await import('../pages/cases/fixtures');
const { PAGES, isLazyPage } = await import('../app/pages');
const { menuFor } = await import('../routes/roleTables');
const { routeOf } = await import('../routes/pathFor');
const { default: SideMenu } = await import('./SideMenu');

const page = pageTests();

describe('prefetching route chunks', () => {
  it('only the dashboard is loaded with the app: every other page has an import to fetch ahead', () => {
    const eager = (Object.keys(PAGES) as Array<keyof typeof PAGES>).filter((k) => !isLazyPage(k));
    // The account pages are lazy too (two-factor settings' QR code library stays off the dashboards).
    expect(eager.sort()).toEqual(['Dashboard']);
  });

  it('a menu entry names its route, so the area can find its page', () => {
    const academy = menuFor('admin').find((d) => d.id === 'freja-academy');
    expect(academy?.route).toBeTruthy();
    expect(routeOf('admin', academy!.route!)?.page).toBe('Academy');
  });

  it('hovering or focusing a menu entry asks for its page', async () => {
    const onPrefetch = vi.fn();
    const r = await page.mount(
      <MemoryRouter initialEntries={['/admin/']}>
        <SideMenu menu={menuFor('admin')} home="/admin/" collapsed={false} onPrefetch={onPrefetch} />
      </MemoryRouter>,
      adminUser,
      { 'GET /bubbles/': () => ({ status: 200, body: {} }) },
    );
    const link = await r.waitFor(() => r.$('menu-item-cases'), 'cases entry');
    await act(async () => {
      link.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: document.body }));
    });
    expect(onPrefetch).toHaveBeenCalledWith(expect.objectContaining({ id: 'cases' }));
    onPrefetch.mockClear();
    await act(async () => link.focus());
    expect(onPrefetch).toHaveBeenCalledWith(expect.objectContaining({ id: 'cases' }));
  });
});
