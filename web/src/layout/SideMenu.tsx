import { Badge, Menu } from 'antd';
import type { MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
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
}

type Items = NonNullable<MenuProps['items']>;

const anyBadge = (defs: MenuDef[]): boolean => defs.some((d) => !!d.badge || anyBadge(d.children ?? []));

/** Dark left menu built from a role's menu table. */
export default function SideMenu({ menu, home, collapsed, onNavigate }: Props) {
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
            label: (
              <Link to={d.path ?? home} data-testid={`menu-item-${d.id}`} onClick={onNavigate}>
                {withBadge(d, t(d.labelKey))}
              </Link>
            ),
          },
    );

  return (
    <Menu
      theme="dark"
      mode="inline"
      data-testid="side-menu"
      items={toItems(entries)}
      selectedKeys={selected ? [selected.id] : []}
      {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
    />
  );
}
