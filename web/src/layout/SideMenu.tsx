// Badge without Badge.Ribbon (NotificationDropdown.tsx).
import Badge from 'antd/es/badge/Badge';
import { Menu } from 'antd';
import type { MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import Link from '../components/Link';
import type { MenuDef } from '../routes/roleTables';
import { useSession } from '../store/session';
import { useBubblePolling, useBubbles } from '../api/bubbles';
import { selectedMenu, visibleMenu } from './menuItems';

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

type Items = NonNullable<MenuProps['items']>;

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
    // A submenu's entries are drawn when it first opens: look again when the open submenus change.
    const timer = window.setTimeout(() => root.querySelectorAll('[data-menu-entry]').forEach((el) => observer.observe(el)), 400);
    return () => {
      window.clearTimeout(timer);
      observer.disconnect();
    };
  }, [root, entries, onPrefetch, rescan]);
}

/** Dark left menu built from a role's menu table. */
export default function SideMenu({ menu, home, collapsed, onNavigate, onPrefetch }: Props) {
  const { t } = useTranslation('menu');
  const { pathname } = useLocation();
  const userType = useSession((s) => s.user?.user_type);
  const permissions = useSession((s) => s.permission);

  const entries = useMemo(() => visibleMenu(menu, { userType, permissions }), [menu, userType, permissions]);
  const selected = useMemo(() => selectedMenu(entries, pathname, home), [entries, pathname, home]);
  const [openKeys, setOpenKeys] = useState<string[]>(selected?.parents ?? []);
  const hasBadges = useMemo(() => anyBadge(menu), [menu]);
  useBubblePolling(hasBadges);
  const bubbles = useBubbles();
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const byId = useMemo(() => leaves(entries), [entries]);
  usePrefetchInView(root, byId, onPrefetch, `${collapsed}:${openKeys.join()}`);
  const badgeCount = (d: MenuDef): number =>
    (d.badge ? bubbles[d.badge] ?? 0 : 0) + (d.children ?? []).reduce((sum, c) => sum + (c.badge ? bubbles[c.badge] ?? 0 : 0), 0);
  const withBadge = (d: MenuDef, label: string) => {
    const count = badgeCount(d);
    if (!count) return label;
    return (
      <>
        {label}{' '}
        <Badge count={count} size="small" data-testid={`menu-badge-${d.id}`} style={{ marginInlineStart: 6 }} />
      </>
    );
  };

  useEffect(() => {
    if (selected?.parents.length) {
      setOpenKeys((keys) => Array.from(new Set([...keys, ...selected.parents])));
    }
  }, [selected]);

  const toItems = (defs: MenuDef[]): Items =>
    defs.map((d) =>
      d.children
        ? {
            key: d.id,
            icon: d.icon,
            label: <span data-testid={`menu-item-${d.id}`}>{withBadge(d, t(d.labelKey))}</span>,
            children: toItems(d.children),
          }
        : {
            key: d.id,
            icon: d.icon,
            onMouseEnter: () => onPrefetch?.(d),
            label: (
              <Link to={d.path ?? home} data-testid={`menu-item-${d.id}`} data-menu-entry={d.id} onClick={onNavigate} onFocus={() => onPrefetch?.(d)}>
                {withBadge(d, t(d.labelKey))}
              </Link>
            ),
          },
    );

  return (
    <div ref={setRoot} className="side-menu">
      <Menu
        theme="dark"
        mode="inline"
        data-testid="side-menu"
        items={toItems(entries)}
        selectedKeys={selected ? [selected.id] : []}
        {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
      />
    </div>
  );
}
