/**
 * The common layout's sizes (spec §2): a 75px header, the left menu 200px wide, 80px collapsed and 0 on a phone,
 * collapsing below the large breakpoint (992px) and opening again above it; the header's button folds and unfolds it.
 * The window's width is set for each test (jsdom has none of its own): `matchMedia` answers from it.
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../test/renderApp');
const { adminUser } = await import('../pages/cases/fixtures');

const page = pageTests();
const listeners = new Set<() => void>();
const original = window.matchMedia;
let width = 1366;

/** The window `px` wide, telling the layout's media queries that listen. */
function setWidth(px: number) {
  width = px;
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: px });
  window.matchMedia = ((query: string) => {
    const min = Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0);
    return {
      matches: width >= min,
      media: query,
      addEventListener: (_: string, fn: () => void) => void listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => void listeners.delete(fn),
      addListener: () => undefined,
      removeListener: () => undefined,
      onchange: null,
      dispatchEvent: () => false,
    } as unknown as MediaQueryList;
  }) as typeof window.matchMedia;
}

async function resize(px: number) {
  setWidth(px);
  await act(async () => listeners.forEach((fn) => fn()));
}

afterEach(() => {
  window.matchMedia = original;
  listeners.clear();
});

const siderWidth = (r: { $: (id: string) => HTMLElement | null }) => r.$('app-sider')!.style.width;

describe('the common layout (spec §2)', { timeout: 180_000 }, () => {
  it('a desktop: the menu 200px beside the content, the header 75px; the button folds it to 80px and back', async () => {
    setWidth(1366);
    const r = await page.render('/admin/', adminUser);
    await r.waitFor(() => r.$('dashboard-page'), 'the dashboard');
    expect(r.$('app-header')!.style.height).toBe('75px');
    expect(siderWidth(r)).toBe('200px');
    const main = r.$('app-content')!.parentElement!;
    expect(main.style.marginLeft).toBe('200px');
    const toggle = r.$('menu-toggle')!;
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-label')).toBe('Collapse menu');
    await r.click('menu-toggle');
    expect(siderWidth(r)).toBe('80px');
    expect(main.style.marginLeft).toBe('80px');
    expect(toggle.getAttribute('aria-label')).toBe('Expand menu');
    await r.click('menu-toggle');
    expect(siderWidth(r)).toBe('200px');
  });

  it('below the large breakpoint the menu collapses to 80px, above it opens again', async () => {
    setWidth(1366);
    const r = await page.render('/admin/', adminUser);
    await r.waitFor(() => r.$('dashboard-page'), 'the dashboard');
    await resize(900);
    expect(siderWidth(r)).toBe('80px');
    expect(r.$('side-menu')!.className).toContain('side-menu-collapsed');
    // From 768px (antd's md) a tablet keeps the 80px menu; below it is a phone's, 0 wide.
    await resize(768);
    expect(siderWidth(r)).toBe('80px');
    await resize(767);
    expect(siderWidth(r)).toBe('0px');
    await resize(1200);
    expect(siderWidth(r)).toBe('200px');
  });

  it('a phone: the menu 0 wide and the content the whole width; the button opens it over the page, a tap beside closes it', async () => {
    setWidth(390);
    const r = await page.render('/admin/', adminUser);
    await r.waitFor(() => r.$('dashboard-page'), 'the dashboard');
    expect(siderWidth(r)).toBe('0px');
    expect(r.$('app-content')!.parentElement!.style.marginLeft).toBe('0px');
    expect(r.$('app-sider-mask')).toBeNull();
    // The conflict search moves from the header to above the content.
    expect(r.$('app-header')!.querySelector('[data-testid="conflict-search"]')).toBeNull();
    expect(r.container.querySelector('.app-mobile-search [data-testid="conflict-search"]')).not.toBeNull();
    await r.click('menu-toggle');
    expect(siderWidth(r)).toBe('200px');
    expect(r.$('side-menu')!.className).not.toContain('side-menu-collapsed');
    await r.click('app-sider-mask');
    expect(siderWidth(r)).toBe('0px');
  });
});
