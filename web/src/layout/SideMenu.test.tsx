/**
 * The areas' left menu (layout/SideMenu.tsx), drawn without antd: groups open and close as antd's inline menu did,
 * the page's entry is marked, badges count, and collapsed a group's entries open in a flyout that Escape, a click
 * outside and a choice close.
 */
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);

const { pageTests } = await import('../test/renderApp');
const { adminUser } = await import('../pages/cases/fixtures');
const { menuFor } = await import('../routes/roleTables');
const { resetBubbles } = await import('../api/bubbles');
const { default: i18n } = await import('../i18n');
const { default: SideMenu } = await import('./SideMenu');
type MenuDef = import('../routes/roleTables').MenuDef;

const page = pageTests();
const noBubbles = { 'GET /bubbles/': () => ({ status: 200, body: { pending_cases: 0, pending_customers: 0 } }) };

async function show(path: string, opts: { collapsed?: boolean; menu?: MenuDef[]; replies?: Record<string, () => unknown>; onNavigate?: () => void } = {}) {
  const r = await page.mount(
    <MemoryRouter initialEntries={[path]}>
      <SideMenu menu={opts.menu ?? menuFor('admin')} home="/admin/" collapsed={!!opts.collapsed} onNavigate={opts.onNavigate} />
    </MemoryRouter>,
    adminUser,
    (opts.replies ?? noBubbles) as never,
  );
  await r.waitFor(() => r.$('side-menu'), 'the menu');
  return r;
}

const button = (r: { $: (id: string) => HTMLElement | null }, id: string) => r.$(`menu-item-${id}`) as HTMLButtonElement;
/** The list a group's button controls. */
const listOf = (b: HTMLElement) => document.getElementById(b.getAttribute('aria-controls')!) as HTMLUListElement;
const click = (el: HTMLElement) => act(async () => el.click());
const openFlyouts = () => [...document.querySelectorAll<HTMLElement>('.side-menu-flyout')].filter((el) => !el.hidden);

describe('side menu', () => {
  beforeEach(() => resetBubbles());

  it('is a labelled navigation of lists; a group opens and closes on click without closing the others', async () => {
    const r = await show('/admin/');
    const nav = r.$('side-menu')!;
    expect(nav.tagName).toBe('NAV');
    expect(nav.getAttribute('aria-label')).toBe('Main menu');
    expect(nav.querySelector(':scope > ul > li')).not.toBeNull();

    const customers = button(r, 'customers');
    const statistics = button(r, 'statistics');
    expect(customers.tagName).toBe('BUTTON');
    expect(customers.type).toBe('button');
    expect(customers.getAttribute('aria-expanded')).toBe('false');
    expect(listOf(customers).hidden).toBe(true);

    await click(customers);
    expect(customers.getAttribute('aria-expanded')).toBe('true');
    expect(listOf(customers).hidden).toBe(false);
    expect(listOf(customers).contains(r.$('menu-item-customers-pending'))).toBe(true);

    await click(statistics);
    expect(statistics.getAttribute('aria-expanded')).toBe('true');
    expect(customers.getAttribute('aria-expanded')).toBe('true');

    await click(customers);
    expect(customers.getAttribute('aria-expanded')).toBe('false');
    expect(listOf(customers).hidden).toBe(true);
    expect(statistics.getAttribute('aria-expanded')).toBe('true');
    // Collapsed or expanded, no flyout in the expanded menu.
    expect(document.querySelector('.side-menu-flyout')).toBeNull();
  });

  it("marks the page's entry (aria-current) and opens its group", async () => {
    const r = await show('/admin/customers/pending/');
    const entry = r.$('menu-item-customers-pending')!;
    expect(entry.tagName).toBe('A');
    expect(entry.getAttribute('href')).toBe('/admin/customers/pending/');
    expect(entry.getAttribute('aria-current')).toBe('page');
    expect(document.querySelectorAll('[data-testid="side-menu"] [aria-current]')).toHaveLength(1);
    expect(button(r, 'customers').getAttribute('aria-expanded')).toBe('true');
    expect(button(r, 'statistics').getAttribute('aria-expanded')).toBe('false');

    // Another entry chosen: it is the page's now.
    await click(r.$('menu-item-cases')!);
    await r.waitFor(() => r.$('menu-item-cases')!.getAttribute('aria-current') === 'page', 'cases marked');
    expect(entry.getAttribute('aria-current')).toBeNull();
  });

  it("shows counts: a group's badge is the sum of its entries'", async () => {
    const menu: MenuDef[] = [
      { id: 'home', labelKey: 'dashboard', path: '/admin/' },
      {
        id: 'work',
        labelKey: 'customers',
        children: [
          { id: 'work-cases', labelKey: 'cases', path: '/admin/cases/', badge: 'pending_cases' },
          { id: 'work-pending', labelKey: 'customersPending', path: '/admin/customers/pending/', badge: 'pending_customers' },
          { id: 'work-active', labelKey: 'customersActive', path: '/admin/customers/active/' },
        ],
      },
    ];
    const r = await show('/admin/', { menu, replies: { 'GET /bubbles/': () => ({ status: 200, body: { pending_cases: 2, pending_customers: 3 } }) } });
    const sum = await r.waitFor(() => r.$('menu-badge-work'), 'the group badge');
    await r.waitFor(() => sum.textContent === '5', 'the sum');
    expect(r.$('menu-badge-work-cases')!.textContent).toBe('2');
    expect(r.$('menu-badge-work-pending')!.textContent).toBe('3');
    expect(r.$('menu-badge-work-active')).toBeNull();
    // Inside the group's title (beside its label), not elsewhere.
    expect(button(r, 'work').contains(sum)).toBe(true);
  });

  it('collapsed: a group opens its entries in a flyout that Escape, a click outside and a choice close', async () => {
    const onNavigate = vi.fn();
    const r = await show('/admin/', { collapsed: true, onNavigate });
    expect(r.$('side-menu')!.classList.contains('side-menu-collapsed')).toBe(true);
    const customers = button(r, 'customers');
    expect(openFlyouts()).toHaveLength(0);

    // Clicked (here as from the keyboard: a click of no mouse button): open, its first entry focused.
    await click(customers);
    expect(customers.getAttribute('aria-expanded')).toBe('true');
    expect(openFlyouts()).toEqual([listOf(customers)]);
    expect(document.activeElement).toBe(r.$('menu-item-customers-active'));

    // Escape: closed, the focus back on the group.
    await act(async () => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect(openFlyouts()).toHaveLength(0);
    expect(customers.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(customers);

    // A click outside the group and its flyout.
    await click(customers);
    expect(openFlyouts()).toHaveLength(1);
    await act(async () => {
      document.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    expect(openFlyouts()).toHaveLength(0);

    // A click inside the flyout keeps it; a second click on the group closes it.
    await click(customers);
    await act(async () => {
      listOf(customers).dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    expect(openFlyouts()).toHaveLength(1);
    await click(customers);
    expect(openFlyouts()).toHaveLength(0);

    // An entry chosen.
    await click(customers);
    await click(r.$('menu-item-customers-pending')!);
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(openFlyouts()).toHaveLength(0);
    expect(customers.getAttribute('aria-expanded')).toBe('false');
    await r.waitFor(() => r.$('menu-item-customers-pending')!.getAttribute('aria-current') === 'page', 'the chosen page');
  });

  it("collapsed: a leaf's label shows as a tooltip on focus, and stays its accessible name", async () => {
    const r = await show('/admin/', { collapsed: true });
    const cases = r.$('menu-item-cases')!;
    expect(cases.textContent).toBe('Cases');
    expect(document.querySelector('.side-menu-tooltip')).toBeNull();
    await act(async () => cases.focus());
    expect(document.querySelector('.side-menu-tooltip')?.textContent).toBe('Cases');
    await act(async () => cases.blur());
    expect(document.querySelector('.side-menu-tooltip')).toBeNull();
  });

  it('labels come from the menu texts, in the language shown', async () => {
    const r = await show('/admin/');
    expect(button(r, 'customers').textContent).toBe('Customers');
    expect(r.$('menu-item-customers-pending')!.textContent).toBe('Pending');
    await act(async () => {
      await i18n.changeLanguage('sv');
    });
    try {
      await r.waitFor(() => button(r, 'customers').textContent === 'Kunder', 'Swedish labels');
      expect(r.$('menu-item-customers-pending')!.textContent).toBe('Väntande');
      expect(r.$('side-menu')!.getAttribute('aria-label')).toBe('Huvudmeny');
    } finally {
      await act(async () => {
        await i18n.changeLanguage('en');
      });
    }
  });
});
