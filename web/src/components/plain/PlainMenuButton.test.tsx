import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import PlainMenuButton, { placePopup, type PlainMenuEntry } from './PlainMenuButton';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../../test/amplifyFake')).amplifyApi);

const { renderComponent } = await import('../../test/renderApp');

const ITEMS: PlainMenuEntry[] = [
  { key: 'profile', label: <span data-testid="profile">Profile</span>, icon: <i data-testid="profile-icon" /> },
  { key: 'password', label: 'Change password', selected: true },
  { type: 'divider' },
  { key: 'logout', label: 'Log out', danger: true },
];

function menu(onClick = vi.fn(), extra: { panel?: (close: () => void) => ReactNode; panelLabel?: string } = {}) {
  return (
    <>
      <PlainMenuButton items={extra.panel ? undefined : ITEMS} onClick={onClick} data-testid="popup" {...extra}>
        {(trigger) => (
          <button type="button" data-testid="trigger" {...trigger}>
            Open
          </button>
        )}
      </PlainMenuButton>
      <button type="button" data-testid="elsewhere">
        Elsewhere
      </button>
    </>
  );
}

const popup = () => document.querySelector<HTMLElement>('[data-testid="popup"]');
const items = () => Array.from(document.querySelectorAll<HTMLElement>('[role="menuitem"], [role="menuitemradio"]'));
const key = async (el: Element, k: string, shiftKey = false) => {
  let event!: KeyboardEvent;
  await act(async () => {
    event = new KeyboardEvent('keydown', { key: k, shiftKey, bubbles: true, cancelable: true });
    el.dispatchEvent(event);
  });
  return event;
};
/** A click as a pointer makes it (`detail` 1): the menu opens without moving the focus. */
const pointerClick = async (el: Element) =>
  act(async () => {
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));
  });

describe('plain menu button (WAI-ARIA menu button)', () => {
  it('a click opens the menu of items under its trigger; a click on an item chooses it and closes the menu', async () => {
    const onClick = vi.fn();
    const r = await renderComponent(menu(onClick));
    const trigger = r.$('trigger')!;
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(popup()).toBeNull();

    await pointerClick(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const p = popup()!;
    expect(p.getAttribute('role')).toBe('menu');
    expect(trigger.getAttribute('aria-controls')).toBe(p.id);
    expect(p.getAttribute('aria-labelledby')).toBe(trigger.id);
    expect(p.className).toContain('plain-menu-popup');
    expect(items().map((i) => i.textContent)).toEqual(['Profile', 'Change password', 'Log out']);
    expect(items()[0].querySelector('.plain-menu-item-icon [data-testid="profile-icon"]')).not.toBeNull();
    expect(items()[1].getAttribute('role')).toBe('menuitemradio');
    expect(items()[1].getAttribute('aria-checked')).toBe('true');
    expect(items()[1].className).toContain('plain-menu-item-selected');
    expect(items()[2].className).toContain('plain-menu-item-danger');
    expect(p.querySelectorAll('[role="separator"]')).toHaveLength(1);
    // Opened by a pointer: the focus stays on the trigger.
    expect(document.activeElement).not.toBe(items()[0]);

    // A click on the label inside the item chooses the item.
    await act(async () => r.$('profile')!.click());
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(onClick).toHaveBeenCalledWith('profile');
    expect(popup()).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');

    // The trigger toggles it.
    await pointerClick(trigger);
    expect(popup()).not.toBeNull();
    await pointerClick(trigger);
    expect(popup()).toBeNull();
    expect(onClick).toHaveBeenCalledTimes(1);
    await r.unmount();
  });

  it('keyboard: Enter, ArrowDown and ArrowUp open it on the first or last item; arrows, Home and End move; Enter and Space choose', async () => {
    const onClick = vi.fn();
    const r = await renderComponent(menu(onClick));
    const trigger = r.$('trigger')!;
    trigger.focus();

    // Enter (or Space) clicks the button: a click of no pointer (`detail` 0) opens it on its first item.
    await act(async () => trigger.click());
    await r.waitFor(() => document.activeElement === items()[0], 'focus on the first item');
    expect(items().every((i) => i.tabIndex === -1)).toBe(true);
    await key(document.activeElement!, 'ArrowDown');
    expect(document.activeElement).toBe(items()[1]);
    await key(document.activeElement!, 'ArrowDown');
    expect(document.activeElement).toBe(items()[2]);
    // Wraps round, over the divider.
    await key(document.activeElement!, 'ArrowDown');
    expect(document.activeElement).toBe(items()[0]);
    await key(document.activeElement!, 'ArrowUp');
    expect(document.activeElement).toBe(items()[2]);
    await key(document.activeElement!, 'Home');
    expect(document.activeElement).toBe(items()[0]);
    await key(document.activeElement!, 'End');
    expect(document.activeElement).toBe(items()[2]);
    await key(document.activeElement!, 'ArrowUp');
    const enter = await key(document.activeElement!, 'Enter');
    expect(enter.defaultPrevented).toBe(true);
    expect(onClick).toHaveBeenCalledWith('password');
    expect(popup()).toBeNull();
    // Chosen by keyboard: the focus is back on the trigger.
    expect(document.activeElement).toBe(trigger);

    const up = await key(trigger, 'ArrowUp');
    expect(up.defaultPrevented).toBe(true);
    await r.waitFor(() => document.activeElement === items()[2], 'focus on the last item');
    await key(document.activeElement!, ' ');
    expect(onClick).toHaveBeenLastCalledWith('logout');
    expect(popup()).toBeNull();

    await key(trigger, 'ArrowDown');
    await r.waitFor(() => document.activeElement === items()[0], 'ArrowDown: focus on the first item');
    expect(onClick).toHaveBeenCalledTimes(2);
    await r.unmount();
  });

  it('Escape closes it and gives the focus back to the trigger; Tab closes it; nothing is chosen', async () => {
    const onClick = vi.fn();
    const r = await renderComponent(menu(onClick));
    const trigger = r.$('trigger')!;
    await key(trigger, 'ArrowDown');
    await r.waitFor(() => document.activeElement === items()[0], 'focus in the menu');
    await key(items()[0], 'ArrowDown');
    await key(document.activeElement!, 'Escape');
    expect(popup()).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('false');

    await key(trigger, 'ArrowDown');
    await r.waitFor(() => document.activeElement === items()[0], 'focus in the menu again');
    const tab = await key(items()[0], 'Tab');
    // The browser's Tab goes on from the trigger (not prevented); Shift+Tab stays on it.
    expect(tab.defaultPrevented).toBe(false);
    expect(popup()).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(onClick).not.toHaveBeenCalled();
    await r.unmount();
  });

  it('a press outside closes it without choosing; a press inside does not', async () => {
    const onClick = vi.fn();
    const r = await renderComponent(menu(onClick));
    const trigger = r.$('trigger')!;
    await pointerClick(trigger);
    await act(async () => {
      items()[1].dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    });
    expect(popup()).not.toBeNull();
    await act(async () => {
      r.$('elsewhere')!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    });
    expect(popup()).toBeNull();
    expect(onClick).not.toHaveBeenCalled();
    // A mouse press (a browser without pointer events) too.
    await pointerClick(trigger);
    await act(async () => {
      document.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    expect(popup()).toBeNull();
    await r.unmount();
  });

  it('a panel instead of items: a labelled dialog with any content, closed by its own close, Escape or a press outside', async () => {
    const r = await renderComponent(
      menu(vi.fn(), {
        panelLabel: 'Messages',
        panel: (close) => (
          <div>
            <a href="#x">A link</a>
            <button type="button" data-testid="panel-close" onClick={close}>
              Done
            </button>
          </div>
        ),
      }),
    );
    const trigger = r.$('trigger')!;
    expect(trigger.getAttribute('aria-haspopup')).toBe('dialog');
    // Opened from the keyboard: the focus goes into the panel.
    await act(async () => trigger.click());
    const p = popup()!;
    expect(p.getAttribute('role')).toBe('dialog');
    expect(p.getAttribute('aria-label')).toBe('Messages');
    expect(p.className).toContain('plain-menu-panel');
    await r.waitFor(() => document.activeElement === p, 'focus on the panel');
    expect(p.querySelectorAll('[role="menuitem"]')).toHaveLength(0);
    await act(async () => r.$('panel-close')!.click());
    expect(popup()).toBeNull();

    await pointerClick(trigger);
    await key(popup()!, 'Escape');
    expect(popup()).toBeNull();
    expect(document.activeElement).toBe(trigger);

    // Tab inside the panel moves in it; from its last control it closes it.
    await pointerClick(trigger);
    const link = popup()!.querySelector('a')!;
    link.focus();
    await key(link, 'Tab');
    expect(popup()).not.toBeNull();
    r.$('panel-close')!.focus();
    await key(r.$('panel-close')!, 'Tab');
    expect(popup()).toBeNull();

    await pointerClick(trigger);
    await act(async () => {
      r.$('elsewhere')!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    });
    expect(popup()).toBeNull();
    await r.unmount();
  });

  it('controlled: `open` rules, `onOpenChange` hears each change', async () => {
    const onOpenChange = vi.fn();
    const r = await renderComponent(
      <PlainMenuButton items={ITEMS} open onOpenChange={onOpenChange}>
        {(trigger) => (
          <button type="button" data-testid="trigger" {...trigger}>
            Open
          </button>
        )}
      </PlainMenuButton>,
    );
    expect(document.querySelector('[role="menu"]')).not.toBeNull();
    await key(items()[0], 'Escape');
    expect(onOpenChange).toHaveBeenCalledWith(false);
    // Still open: its owner keeps it so.
    expect(document.querySelector('[role="menu"]')).not.toBeNull();
    await r.unmount();
  });
});

describe("the popup's place", () => {
  const rect = (left: number, top: number, width: number, height: number) => new DOMRect(left, top, width, height);
  const size = { width: 200, height: 150 };

  it("under the trigger, aligned to its right or left edge, 4 px below", () => {
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(900);
    vi.spyOn(document.documentElement, 'clientWidth', 'get').mockReturnValue(1366);
    expect(placePopup(rect(1200, 10, 40, 40), size, 'bottomRight', false)).toMatchObject({ left: 1040, top: 54, above: false });
    expect(placePopup(rect(1200, 10, 40, 40), size, 'bottomLeft', false)).toMatchObject({ left: 1158, top: 54 });
    // Kept 8 px inside the screen.
    expect(placePopup(rect(20, 10, 40, 40), size, 'bottomRight', false).left).toBe(8);
    // Without room below, above the trigger.
    expect(placePopup(rect(600, 800, 40, 40), size, 'bottomRight', false)).toMatchObject({ top: 646, above: true });
    vi.restoreAllMocks();
  });

  it("on a phone, `phoneEnd` keeps it to the screen's right edge whichever trigger opened it", () => {
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(844);
    vi.spyOn(document.documentElement, 'clientWidth', 'get').mockReturnValue(390);
    expect(placePopup(rect(200, 10, 40, 40), { width: 300, height: 200 }, 'bottomRight', true).left).toBe(82);
    expect(placePopup(rect(200, 10, 40, 40), { width: 300, height: 200 }, 'bottomRight', false).left).toBe(8);
    vi.restoreAllMocks();
  });
});

// The header is on every area's first page, which loads no antd (src/budget.test.ts): neither do its menus.
it("the header's menus import nothing from antd", () => {
  const src = join(__dirname, '..', '..');
  for (const file of ['components/plain/PlainMenuButton.tsx', 'components/plain/PlainBadge.tsx', 'components/LanguageMenu.tsx', 'layout/UserMenu.tsx', 'layout/NotificationDropdown.tsx']) {
    const text = readFileSync(join(src, file), 'utf8');
    expect(text, file).not.toMatch(/from\s+['"]antd(\/[^'"]*)?['"]/);
  }
});
