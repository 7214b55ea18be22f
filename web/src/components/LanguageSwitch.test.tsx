import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';

vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);

const { renderComponent } = await import('../test/renderApp');
// Each test a fresh module: the switch remembers a loaded menu for the page's life.
async function freshSwitch() {
  vi.resetModules();
  return (await import('./LanguageSwitch')).default;
}

const pointer = (type: string) => new PointerEvent(type, { bubbles: true, pointerType: 'mouse' } as PointerEventInit);

describe('language switch', { timeout: 180_000 }, () => {
  // On a slow machine the menu's chunk came in between a press and its release: the pressed
  // button left the page, the browser fired no click, and the person's click was lost.
  it('keeps the pressed button until the click, then opens its menu', async () => {
    const LanguageSwitch = await freshSwitch();
    const r = await renderComponent(<LanguageSwitch />);
    const pressed = r.$('language-switch');
    expect(pressed).not.toBeNull();
    await act(async () => {
      pressed!.dispatchEvent(pointer('pointerdown'));
    });
    // The menu's chunk is in now (the press loads it at once) …
    await act(async () => {
      await import('./LanguageMenu');
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    // … yet the button under the pointer is the same one, so the release's click lands on it.
    expect(r.$('language-switch')).toBe(pressed);
    await act(async () => {
      pressed!.dispatchEvent(pointer('pointerup'));
      pressed!.click();
    });
    const option = await r.waitFor(() => r.$('language-option-en'), 'the menu opened by that click');
    expect(option.textContent).toBe('English');
    await r.unmount();
  });

  // The menu is code a page needs only once the switch is used (it brought antd's base, ~100 KiB, before it was plain):
  // on a slow phone, loading it when idle took the page's bandwidth and main thread just after it was shown. Only a
  // person reaching for the switch loads it.
  it('loads no menu until the switch is pointed at, focused or pressed', async () => {
    const LanguageSwitch = await freshSwitch();
    const r = await renderComponent(<LanguageSwitch />);
    const first = r.$('language-switch')!;
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
    });
    expect(r.$('language-switch')).toBe(first);
    expect(first.getAttribute('aria-haspopup')).toBeNull();
    await act(async () => {
      first.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    });
    const menu = await r.waitFor(() => r.$('language-switch') !== first && r.$('language-switch'), 'the menu once focused');
    expect(menu.getAttribute('aria-haspopup')).toBe('menu');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await r.unmount();
  });

  it('a press the mouse drags off lets the menu in without opening it', async () => {
    const LanguageSwitch = await freshSwitch();
    const r = await renderComponent(<LanguageSwitch />);
    const first = r.$('language-switch')!;
    await act(async () => {
      first.dispatchEvent(pointer('pointerdown'));
      await import('./LanguageMenu');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(r.$('language-switch')).toBe(first);
    await act(async () => {
      first.dispatchEvent(pointer('pointerout'));
      first.dispatchEvent(new PointerEvent('pointerleave', { bubbles: false, pointerType: 'mouse' } as PointerEventInit));
    });
    await r.waitFor(() => r.$('language-switch') !== first, 'the menu in place of the placeholder');
    expect(r.$('language-option-en')).toBeNull();
    await r.unmount();
  });
});
