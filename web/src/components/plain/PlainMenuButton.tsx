/**
 * antd's Dropdown as the areas' header uses it (a click opens a menu or a panel under its trigger), drawn by plain
 * elements and CSS (./menu.css): the header is on an area's first page, which loads no antd (src/budget.test.ts).
 * The WAI-ARIA menu button: the trigger is a `<button aria-haspopup="menu" aria-expanded>`, the popup a `menu` of
 * `menuitem`s. Enter, Space or ArrowDown on the trigger open it on the first item, ArrowUp on the last; the arrow
 * keys, Home and End move between the items; Enter, Space or a click chooses one (`onClick(key)`, then it closes);
 * Escape, Tab or a press outside close it (Escape gives the focus back to the trigger).
 * With `panel` instead of `items` the popup is that content (a `dialog`): the header's notification lists.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode, type Ref } from 'react';
import { createPortal } from 'react-dom';
import './menu.css';

export interface PlainMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  /** Set on each item of a choice (the language): true on the chosen one, which is marked as antd's selectable menu marks it. */
  selected?: boolean;
}
export type PlainMenuEntry = PlainMenuItem | { type: 'divider'; key?: string };

/** What the trigger (a `<button>`) takes from the menu: spread it onto the button. */
export interface PlainMenuTriggerProps {
  ref: Ref<HTMLButtonElement>;
  id: string;
  'aria-haspopup': 'menu' | 'dialog';
  'aria-expanded': boolean;
  'aria-controls': string | undefined;
  onClick: (e: MouseEvent<HTMLButtonElement>) => void;
  onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void;
}

export interface PlainMenuButtonProps {
  /** The trigger: a `<button>` given the menu's props. */
  children: (trigger: PlainMenuTriggerProps) => ReactNode;
  items?: PlainMenuEntry[];
  onClick?: (key: string) => void;
  /** Instead of `items`: the popup's content, given a function that closes it. */
  panel?: (close: () => void) => ReactNode;
  /** The panel's accessible name (a dialog's). */
  panelLabel?: string;
  /** Under the trigger, aligned to its right edge (antd's bottomRight) or its left. */
  placement?: 'bottomRight' | 'bottomLeft';
  /** On a phone (≤ 480 px wide) the popup keeps to the screen's right edge whichever trigger opened it. */
  phoneEnd?: boolean;
  /** Controlled: open or not (with `onOpenChange`). */
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  popupClassName?: string;
  'data-testid'?: string;
}

/** Between the trigger and the popup, and the popup and the screen's edges (antd's 4 px offset, 8 px margin). */
const GAP = 4;
const EDGE = 8;
const PHONE = 480;

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Where the popup stands (fixed, in the viewport): under its trigger, inside the screen, above it when it has no room below. */
export function placePopup(trigger: DOMRect, popup: { width: number; height: number }, placement: 'bottomRight' | 'bottomLeft', phoneEnd: boolean) {
  const vw = document.documentElement.clientWidth || window.innerWidth;
  const vh = window.innerHeight;
  let left = placement === 'bottomRight' ? trigger.right - popup.width : trigger.left;
  if (phoneEnd && vw <= PHONE) left = vw - popup.width - EDGE;
  left = Math.max(EDGE, Math.min(left, vw - popup.width - EDGE));
  let top = trigger.bottom + GAP;
  let above = false;
  // Too high for the room below and more room above: it opens upwards (antd's autoAdjustOverflow).
  if (top + popup.height > vh - EDGE && trigger.top - GAP - popup.height >= EDGE) {
    top = trigger.top - GAP - popup.height;
    above = true;
  }
  const maxHeight = above ? undefined : Math.max(vh - top - EDGE, 120);
  return { left: Math.round(left), top: Math.round(top), maxHeight, above };
}

export default function PlainMenuButton({
  children,
  items,
  onClick,
  panel,
  panelLabel,
  placement = 'bottomRight',
  phoneEnd = false,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  popupClassName,
  'data-testid': testId,
}: PlainMenuButtonProps) {
  const [openState, setOpenState] = useState(defaultOpen);
  const open = openProp ?? openState;
  const id = useId();
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const popupRef = useRef<HTMLDivElement | null>(null);
  /** Which item takes the focus once the menu is drawn: the first, the last, or none (a click on the trigger). */
  const focusAtOpen = useRef<'first' | 'last' | 'popup' | null>(null);
  const [pos, setPos] = useState<ReturnType<typeof placePopup> | null>(null);

  const setOpen = useCallback(
    (next: boolean) => {
      if (openProp === undefined) setOpenState(next);
      onOpenChange?.(next);
    },
    [openProp, onOpenChange],
  );
  const close = useCallback(
    (focusTrigger = false) => {
      setOpen(false);
      if (focusTrigger) triggerRef.current?.focus();
    },
    [setOpen],
  );

  const menuItems = () => Array.from(popupRef.current?.querySelectorAll<HTMLElement>('.plain-menu-item') ?? []);
  const focusItem = (which: 'first' | 'last' | number) => {
    const all = menuItems();
    if (all.length === 0) return;
    const i = which === 'first' ? 0 : which === 'last' ? all.length - 1 : (which + all.length) % all.length;
    all[i].focus();
  };

  // Placed before it is painted (hidden until then), and again when the page scrolls or the window changes size.
  useLayoutEffect(() => {
    if (!open) {
      setPos(null);
      return;
    }
    const update = () => {
      const t = triggerRef.current;
      const p = popupRef.current;
      if (!t || !p) return;
      setPos(placePopup(t.getBoundingClientRect(), { width: p.offsetWidth, height: p.scrollHeight }, placement, phoneEnd));
    };
    update();
    window.addEventListener('resize', update);
    window.addEventListener('scroll', update, true);
    // The panel's content comes in later (a list loading): placed again when its size changes.
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    if (popupRef.current) observer?.observe(popupRef.current.firstElementChild ?? popupRef.current);
    return () => {
      window.removeEventListener('resize', update);
      window.removeEventListener('scroll', update, true);
      observer?.disconnect();
    };
  }, [open, placement, phoneEnd]);

  // The focus goes in once it is placed (a focus before would scroll the page to the popup's first spot).
  useEffect(() => {
    if (!open || !pos || !focusAtOpen.current) return;
    const at = focusAtOpen.current;
    focusAtOpen.current = null;
    if (at === 'popup') popupRef.current?.focus();
    else focusItem(at);
  }, [open, pos]);

  // A press outside the trigger and the popup closes it.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: Event) => {
      const target = e.target as Node | null;
      if (target && (triggerRef.current?.contains(target) || popupRef.current?.contains(target))) return;
      close();
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('mousedown', onDown, true);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('mousedown', onDown, true);
    };
  }, [open, close]);

  const openWith = (focus: 'first' | 'last' | 'popup' | null) => {
    focusAtOpen.current = focus;
    if (!open) setOpen(true);
    else if (focus) {
      focusAtOpen.current = null;
      if (focus === 'popup') popupRef.current?.focus();
      else focusItem(focus);
    }
  };

  // Enter and Space click the button (a click of no pointer, `detail` 0): the menu opens on its first item.
  const onTriggerClick = (e: MouseEvent<HTMLButtonElement>) => {
    if (open) close();
    else openWith(e.detail === 0 ? (panel ? 'popup' : 'first') : null);
  };

  const onTriggerKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      openWith(panel ? 'popup' : 'first');
    } else if (e.key === 'ArrowUp' && !panel) {
      e.preventDefault();
      openWith('last');
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };

  const choose = (key: string) => {
    const hadFocus = !!popupRef.current?.contains(document.activeElement);
    onClick?.(key);
    close(hadFocus);
  };

  const onMenuKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = menuItems();
    const at = all.indexOf(document.activeElement as HTMLElement);
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        focusItem(at < 0 ? 'first' : at + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        focusItem(at < 0 ? 'last' : at - 1);
        break;
      case 'Home':
        e.preventDefault();
        focusItem('first');
        break;
      case 'End':
        e.preventDefault();
        focusItem('last');
        break;
      case 'Enter':
      case ' ': {
        e.preventDefault();
        const key = at >= 0 ? all[at].dataset.key : undefined;
        if (key !== undefined) choose(key);
        break;
      }
      case 'Escape':
        e.preventDefault();
        close(true);
        break;
      case 'Tab':
        // Closed, the focus back on the trigger: the Tab then goes on from there (Shift+Tab stays on it).
        close(true);
        if (e.shiftKey) e.preventDefault();
        break;
    }
  };

  const onPanelKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') {
      // Tabbing out of the panel closes it, and goes on from the trigger.
      const tabbable = Array.from(popupRef.current?.querySelectorAll<HTMLElement>(TABBABLE) ?? []);
      const active = document.activeElement;
      const first = active === popupRef.current || active === tabbable[0];
      const last = tabbable.length === 0 || active === tabbable[tabbable.length - 1];
      if (e.shiftKey ? first : last) {
        close(true);
        if (e.shiftKey) e.preventDefault();
      }
    }
  };

  const popupId = `${id}-popup`;
  const style: CSSProperties = pos
    ? { left: pos.left, top: pos.top, maxHeight: pos.maxHeight }
    : { left: 0, top: 0, visibility: 'hidden' };
  const classes = ['plain-menu-popup', panel ? 'plain-menu-panel' : 'plain-menu-list', pos?.above && 'plain-menu-above', popupClassName].filter(Boolean).join(' ');

  const popup = !open
    ? null
    : panel
      ? (
          <div
            ref={popupRef}
            id={popupId}
            role="dialog"
            aria-label={panelLabel}
            tabIndex={-1}
            className={classes}
            style={style}
            data-testid={testId}
            onKeyDown={onPanelKeyDown}
          >
            {panel(() => close())}
          </div>
        )
      : (
          <div
            ref={popupRef}
            id={popupId}
            role="menu"
            aria-labelledby={`${id}-trigger`}
            className={classes}
            style={style}
            data-testid={testId}
            onKeyDown={onMenuKeyDown}
          >
            {(items ?? []).map((item, i) =>
              'type' in item ? (
                <div key={item.key ?? `divider-${i}`} role="separator" className="plain-menu-divider" />
              ) : (
                <div
                  key={item.key}
                  // A choice's items (the language) are radio items, the chosen one checked (WAI-ARIA's menu button).
                  role={item.selected === undefined ? 'menuitem' : 'menuitemradio'}
                  tabIndex={-1}
                  data-key={item.key}
                  aria-checked={item.selected === undefined ? undefined : item.selected}
                  className={['plain-menu-item', item.danger && 'plain-menu-item-danger', item.selected && 'plain-menu-item-selected'].filter(Boolean).join(' ')}
                  onClick={() => choose(item.key)}
                  // The pointer moves the focus as the arrow keys do (antd's hover), so keys go on from there.
                  onPointerMove={(e) => document.activeElement !== e.currentTarget && e.currentTarget.focus({ preventScroll: true })}
                >
                  {item.icon && <span className="plain-menu-item-icon">{item.icon}</span>}
                  <span className="plain-menu-item-label">{item.label}</span>
                </div>
              ),
            )}
          </div>
        );

  return (
    <>
      {children({
        ref: triggerRef,
        id: `${id}-trigger`,
        'aria-haspopup': panel ? 'dialog' : 'menu',
        'aria-expanded': open,
        'aria-controls': open ? popupId : undefined,
        onClick: onTriggerClick,
        onKeyDown: onTriggerKeyDown,
      })}
      {popup && createPortal(popup, document.body)}
    </>
  );
}
