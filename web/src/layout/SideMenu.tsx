/**
 * The areas' dark left menu (spec §2), drawn by plain elements and CSS (sideMenu.css): an area's first page (the
 * dashboards) loads no antd (src/budget.test.ts), and antd's Menu brought its whole base with it. The look is antd's
 * dark inline menu with the app's theme (config/theme.ts); collapsed (80px) it shows icons only, a leaf's label as a
 * tooltip and a group's entries in a flyout beside the menu.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent, type MouseEvent, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import Link from '../components/Link';
import PlainBadge from '../components/plain/PlainBadge';
import type { MenuDef } from '../routes/roleTables';
import { useSession } from '../store/session';
import { useBubblePolling, useBubbles } from '../api/bubbles';
import { selectedMenu, visibleMenu } from './menuItems';
import './sideMenu.css';

interface Props {
  menu: MenuDef[];
  /** The role's dashboard path (the prefix root). */
  home: string;
  collapsed: boolean;
  onNavigate?: () => void;
  /**
   * Fetches a leaf entry's page ahead of the click: called when the entry is
   * hovered or focused, and (when the browser is idle, not on a data-saving
   * connection) when it comes into view. The role area passes the page registry's
   * prefetch here, so the layout does not import the app shell.
   */
  onPrefetch?: (entry: MenuDef) => void;
}

const anyBadge = (defs: MenuDef[]): boolean => defs.some((d) => !!d.badge || anyBadge(d.children ?? []));

/** Leaf entries by id. */
function leaves(defs: MenuDef[], out = new Map<string, MenuDef>()): Map<string, MenuDef> {
  for (const d of defs) (d.children ? leaves(d.children, out) : out.set(d.id, d));
  return out;
}

/** The user asked for less data (or the connection is 2G): fetch nothing just because it is in view. */
function savesData(): boolean {
  const c = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  return !!c && (c.saveData === true || /(^|-)2g$/.test(c.effectiveType ?? ''));
}

type Idle = (cb: () => void, opts?: { timeout: number }) => number;

/** Calls `onPrefetch` (once the browser is idle) for each entry link that comes into view inside `root`. */
function usePrefetchInView(root: HTMLElement | null, entries: Map<string, MenuDef>, onPrefetch: Props['onPrefetch'], rescan: unknown) {
  useEffect(() => {
    if (!root || !onPrefetch || typeof IntersectionObserver === 'undefined' || savesData()) return;
    const idle: Idle = (window as Window & { requestIdleCallback?: Idle }).requestIdleCallback ?? ((cb) => window.setTimeout(cb, 300));
    const observer = new IntersectionObserver((records) => {
      for (const r of records) {
        if (!r.isIntersecting) continue;
        observer.unobserve(r.target);
        const entry = entries.get(r.target.getAttribute('data-menu-entry') ?? '');
        if (entry) idle(() => onPrefetch(entry), { timeout: 3000 });
      }
    });
    // A closed group's entries are hidden (never in view): look again when the open groups change.
    const timer = window.setTimeout(() => root.querySelectorAll('[data-menu-entry]').forEach((el) => observer.observe(el)), 400);
    return () => {
      window.clearTimeout(timer);
      observer.disconnect();
    };
  }, [root, entries, onPrefetch, rescan]);
}

/** A collapsed menu's open group: its entries in a panel to the right of the menu (fixed, at the group's height). */
interface Flyout {
  id: string;
  /** Opened by a mouse hovering the group (closes when it leaves) or by a click / Enter (stays until closed). */
  by: 'hover' | 'click';
  top: number;
  left: number;
  /** Opened from the keyboard: its first entry takes the focus. */
  focusFirst: boolean;
}

/** How long a hovered flyout stays once the mouse left its group (the way across the gap to the panel). */
const HOVER_CLOSE_MS = 200;
const level = (n: number) => ({ '--side-menu-level': n }) as CSSProperties;

/** Dark left menu built from a role's menu table. */
export default function SideMenu({ menu, home, collapsed, onNavigate, onPrefetch }: Props) {
  const { t } = useTranslation('menu');
  const { pathname } = useLocation();
  const userType = useSession((s) => s.user?.user_type);
  const permissions = useSession((s) => s.permission);

  const entries = useMemo(() => visibleMenu(menu, { userType, permissions }), [menu, userType, permissions]);
  const selected = useMemo(() => selectedMenu(entries, pathname, home), [entries, pathname, home]);
  const [openKeys, setOpenKeys] = useState<string[]>(selected?.parents ?? []);
  const [flyout, setFlyout] = useState<Flyout | null>(null);
  const [tip, setTip] = useState<{ label: string; top: number; left: number } | null>(null);
  const hasBadges = useMemo(() => anyBadge(menu), [menu]);
  useBubblePolling(hasBadges);
  const bubbles = useBubbles();
  const [root, setRoot] = useState<HTMLElement | null>(null);
  const byId = useMemo(() => leaves(entries), [entries]);
  usePrefetchInView(root, byId, onPrefetch, `${collapsed}:${openKeys.join()}:${flyout?.id ?? ''}`);
  const idBase = useId();
  const subId = (id: string) => `${idBase}-sub-${id}`;
  const hoverClose = useRef<number | undefined>(undefined);
  const groupLi = (id: string) => [...(root?.querySelectorAll<HTMLElement>('[data-menu-group]') ?? [])].find((el) => el.dataset.menuGroup === id) ?? null;

  const badgeCount = (d: MenuDef): number =>
    (d.badge ? bubbles[d.badge] ?? 0 : 0) + (d.children ?? []).reduce((sum, c) => sum + (c.badge ? bubbles[c.badge] ?? 0 : 0), 0);
  const withBadge = (d: MenuDef, label: string): ReactNode => {
    const count = badgeCount(d);
    if (!count) return label;
    return (
      <>
        {label}{' '}
        <PlainBadge count={count} size="small" data-testid={`menu-badge-${d.id}`} style={{ marginInlineStart: 6 }} />
      </>
    );
  };

  useEffect(() => {
    if (selected?.parents.length) {
      setOpenKeys((keys) => Array.from(new Set([...keys, ...selected.parents])));
    }
  }, [selected]);

  // Expanded, hidden (a phone) or on another page: no flyout or tooltip stays.
  useEffect(() => {
    setFlyout(null);
    setTip(null);
  }, [collapsed, pathname]);

  useEffect(() => () => window.clearTimeout(hoverClose.current), []);

  // An open flyout closes on Escape (the focus back on its group), a click outside its group, or the menu scrolling.
  useEffect(() => {
    if (!flyout && !tip) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setTip(null);
      if (!flyout) return;
      setFlyout(null);
      groupLi(flyout.id)?.querySelector<HTMLElement>(':scope > button')?.focus();
    };
    const onDown = (e: Event) => {
      if (flyout && !groupLi(flyout.id)?.contains(e.target as Node)) setFlyout(null);
    };
    const onScroll = (e: Event) => {
      if (e.target instanceof Element && root && e.target.contains(root)) {
        setFlyout(null);
        setTip(null);
      }
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown, true);
    document.addEventListener('scroll', onScroll, true);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown, true);
      document.removeEventListener('scroll', onScroll, true);
    };
    // groupLi reads `root`, listed.
  }, [flyout, tip, root]);

  // Within the window: a flyout that would run past its bottom moves up (not above the menu); from the keyboard, its first entry takes the focus.
  useLayoutEffect(() => {
    if (!flyout) return;
    const panel = document.getElementById(subId(flyout.id));
    if (!panel) return;
    const height = panel.getBoundingClientRect().height;
    const floor = root?.getBoundingClientRect().top ?? 0;
    const top = Math.max(floor, Math.min(flyout.top, window.innerHeight - 8 - height));
    if (flyout.focusFirst) panel.querySelector<HTMLElement>('a, button')?.focus();
    if (top !== flyout.top || flyout.focusFirst) setFlyout({ ...flyout, top, focusFirst: false });
    // subId and root are stable for the flyout's life.
  }, [flyout]);

  const openFlyout = (id: string, button: HTMLElement, by: Flyout['by'], focusFirst = false) => {
    window.clearTimeout(hoverClose.current);
    const r = button.getBoundingClientRect();
    setTip(null);
    setFlyout({ id, by, top: r.top, left: r.right + 8, focusFirst });
  };

  const toggleGroup = (d: MenuDef, isFlyout: boolean, e: MouseEvent<HTMLButtonElement>) => {
    if (!isFlyout) {
      setOpenKeys((keys) => (keys.includes(d.id) ? keys.filter((k) => k !== d.id) : [...keys, d.id]));
      return;
    }
    // A click on a group its hover opened keeps it open (as chosen); a second click closes it.
    if (flyout?.id === d.id && flyout.by === 'click') setFlyout(null);
    else if (flyout?.id === d.id) setFlyout({ ...flyout, by: 'click' });
    // From the keyboard (Enter or Space: a click of no mouse button), into the panel.
    else openFlyout(d.id, e.currentTarget, 'click', e.detail === 0);
  };

  const hoverGroup = (d: MenuDef, e: PointerEvent<HTMLLIElement>, enter: boolean) => {
    if (e.pointerType !== 'mouse') return;
    window.clearTimeout(hoverClose.current);
    if (enter) {
      if (flyout?.id !== d.id) openFlyout(d.id, e.currentTarget.querySelector(':scope > button') ?? e.currentTarget, 'hover');
    } else if (flyout?.id === d.id && flyout.by === 'hover') {
      hoverClose.current = window.setTimeout(() => setFlyout((f) => (f?.id === d.id && f.by === 'hover' ? null : f)), HOVER_CLOSE_MS);
    }
  };

  /** Tabbing out of a flyout's group closes it. */
  const leaveGroup = (d: MenuDef, e: FocusEvent<HTMLLIElement>) => {
    const to = e.relatedTarget as Node | null;
    if (to && !e.currentTarget.contains(to)) setFlyout((f) => (f?.id === d.id ? null : f));
  };

  /** Up and down arrows between a flyout's entries. */
  const arrows = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>('a, button')].filter((el) => !el.closest('[hidden]'));
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = items[(at + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  const showTip = (label: string, el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    setTip({ label, top: r.top + r.height / 2, left: r.right + 12 });
  };

  const icon = (d: MenuDef) =>
    d.icon ? (
      <span className="side-menu-icon" aria-hidden="true">
        {d.icon}
      </span>
    ) : null;

  const render = (defs: MenuDef[], depth: number): ReactNode =>
    defs.map((d) => {
      const label = t(d.labelKey);
      if (d.children) {
        const isFlyout = collapsed && depth === 0;
        const open = isFlyout ? flyout?.id === d.id : openKeys.includes(d.id);
        const holdsSelected = !!selected?.parents.includes(d.id);
        const panel = isFlyout && open && flyout ? { top: flyout.top, left: flyout.left } : undefined;
        return (
          <li
            key={d.id}
            className="side-menu-li"
            data-menu-group={d.id}
            onPointerEnter={isFlyout ? (e) => hoverGroup(d, e, true) : undefined}
            onPointerLeave={isFlyout ? (e) => hoverGroup(d, e, false) : undefined}
            onBlur={isFlyout ? (e) => leaveGroup(d, e) : undefined}
          >
            <button
              type="button"
              className={`side-menu-item side-menu-group${holdsSelected ? ' side-menu-group-selected' : ''}${open ? ' side-menu-open' : ''}`}
              style={level(depth)}
              aria-expanded={open}
              aria-controls={subId(d.id)}
              data-testid={`menu-item-${d.id}`}
              onClick={(e) => toggleGroup(d, isFlyout, e)}
            >
              {icon(d)}
              <span className="side-menu-label">{withBadge(d, label)}</span>
              <span className="side-menu-arrow" aria-hidden="true" />
            </button>
            <ul
              id={subId(d.id)}
              className={isFlyout ? 'side-menu-sub side-menu-flyout' : 'side-menu-sub'}
              hidden={!open}
              style={panel}
              onKeyDown={isFlyout ? arrows : undefined}
            >
              {render(d.children, depth + 1)}
            </ul>
          </li>
        );
      }
      const isSelected = selected?.id === d.id;
      const tipped = collapsed && depth === 0;
      return (
        <li key={d.id} className="side-menu-li">
          <Link
            to={d.path ?? home}
            className={`side-menu-item${isSelected ? ' side-menu-selected' : ''}`}
            style={level(depth)}
            aria-current={isSelected ? 'page' : undefined}
            data-testid={`menu-item-${d.id}`}
            data-menu-entry={d.id}
            onClick={() => {
              setFlyout(null);
              setTip(null);
              onNavigate?.();
            }}
            onMouseEnter={(e) => {
              onPrefetch?.(d);
              if (tipped) showTip(label, e.currentTarget);
            }}
            onMouseLeave={tipped ? () => setTip(null) : undefined}
            onFocus={(e) => {
              onPrefetch?.(d);
              if (tipped) showTip(label, e.currentTarget);
            }}
            onBlur={tipped ? () => setTip(null) : undefined}
          >
            {icon(d)}
            <span className="side-menu-label">{withBadge(d, label)}</span>
          </Link>
        </li>
      );
    });

  return (
    <nav ref={setRoot} className={collapsed ? 'side-menu side-menu-collapsed' : 'side-menu'} data-testid="side-menu" aria-label={t('navigation')}>
      <ul className="side-menu-root">{render(entries, 0)}</ul>
      {tip && (
        // The link's own text names it (hidden beside its icon): this only shows it.
        <div className="side-menu-tooltip" aria-hidden="true" style={{ top: tip.top, left: tip.left }}>
          {tip.label}
        </div>
      )}
    </nav>
  );
}
