// First: the rules it took from styles.css keep their place before the other sheets the area loads (collaboration.css).
import './area.css';
import LegalLinks from '../components/LegalLinks';
import MenuFoldOutlined from '@ant-design/icons-svg/es/asn/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons-svg/es/asn/MenuUnfoldOutlined';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HEADER_HEIGHT, MENU_COLLAPSED_WIDTH, MENU_MOBILE_WIDTH, MENU_WIDTH } from '../config/constants';
import type { Role } from '../auth/roles';
import { hasRoute, pathFor } from '../routes/pathFor';
import type { MenuDef } from '../routes/roleTables';
import { useCustomerDetailsState } from '../store/customerDetails';
import ConflictSearch from '../components/ConflictSearch';
// The menu itself, not the public pages' lazy switch: the area loads Dropdown anyway, and the button is never swapped under a click.
import LanguageMenu from '../components/LanguageMenu';
import Logo from '../components/Logo';
import SideMenu from './SideMenu';
import UserMenu from './UserMenu';
import NotificationDropdown, { headerDropdowns } from './NotificationDropdown';
import { useCountPolling } from '../api/notificationCounts';
import { loadPageTexts } from '../i18n';
import { themedModule } from '../components/themed';
import PlainButton from '../components/plain/PlainButton';
import PlainIcon from '../components/plain/PlainIcon';
import { useWidthAtLeast } from './useWidthAtLeast';

// The customer-details modal (its table and date pickers) loads when first opened, not with every area; it draws
// antd, so it loads with antd's theme (the shell draws none: src/budget.test.ts).
// Only customers are asked to accept new terms: the check loads with the customer area, its question (antd's Modal)
// only when something is pending (components/LegalAcceptance.tsx).
const LegalAcceptance = lazy(() => import('../components/LegalAcceptance'));
// The customer card opens from the header's search or a list: with the pages' texts (not the area's first load).
const CustomerDetailsModal = lazy(() =>
  themedModule<object>(() => Promise.all([import('../pages/customerAdmin/CustomerDetailsModal'), loadPageTexts()]).then(([m]) => m)),
);

/**
 * Common layout (spec §2): fixed 75px header (logo, collapse toggle, language
 * switch, user menu; admin: conflict search) and a dark left menu 200px wide,
 * 80px collapsed, 0 on mobile, collapsing below the large breakpoint. Drawn by
 * plain elements (layout/area.css, styles.css), as antd's Layout draws it: an
 * area's first page loads no antd (src/budget.test.ts); its pages load antd
 * with themselves (app/pages.tsx).
 */
export default function AppLayout({
  role,
  menu,
  onPrefetch,
  children,
}: {
  role: Role;
  menu: MenuDef[];
  /** Fetches a menu entry's page ahead of the click (the role area's page registry). */
  onPrefetch?: (entry: MenuDef) => void;
  children: ReactNode;
}) {
  // Mounted from the first request on (and kept, so it can animate closed).
  // The store is read on every render (a hook may not sit behind `||=`).
  const detailsUid = useCustomerDetailsState().uid;
  const requested = useRef(false);
  requested.current ||= !!detailsUid;
  const modalWanted = requested.current;
  const { t } = useTranslation();
  // antd's breakpoints: md 768 px, lg 992 px.
  const isMobile = !useWidthAtLeast(768);
  // Spec §2: the admin header has the conflict box; lawyers search conflicts too (interest/).
  const searchesConflicts = hasRoute(role, 'interest');
  const home = pathFor(role, 'dashboard');
  const isLarge = useWidthAtLeast(992);
  const [collapsed, setCollapsed] = useState(() => typeof window !== 'undefined' && window.innerWidth < 992);
  const dropdowns = headerDropdowns(role);
  useCountPolling(dropdowns);

  // Below the large breakpoint the menu collapses, above it opens again (antd's Sider with `breakpoint="lg"`), and
  // on a phone it closes (0 wide).
  const wasLarge = useRef(isLarge);
  useEffect(() => {
    if (wasLarge.current !== isLarge) setCollapsed(!isLarge);
    wasLarge.current = isLarge;
  }, [isLarge]);
  useEffect(() => {
    if (isMobile) setCollapsed(true);
  }, [isMobile]);

  const siderWidth = collapsed ? (isMobile ? MENU_MOBILE_WIDTH : MENU_COLLAPSED_WIDTH) : MENU_WIDTH;

  return (
    <div className="app-layout" data-testid="app-layout" data-role={role}>
      <header className="app-header" data-testid="app-header" style={{ height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px` }}>
        <div className="app-header-left">
          <Logo to={home} compact={isMobile} />
          <PlainButton
            type="text"
            className="menu-toggle"
            data-testid="menu-toggle"
            aria-label={collapsed ? t('header.expandMenu') : t('header.collapseMenu')}
            aria-expanded={!collapsed}
            icon={<PlainIcon icon={collapsed ? MenuUnfoldOutlined : MenuFoldOutlined} aria-hidden />}
            onClick={() => setCollapsed((c) => !c)}
          />
          {searchesConflicts && !isMobile && <ConflictSearch role={role} />}
        </div>
        <div className="app-header-right">
          <LanguageMenu type="text" open={false} focus={false} />
          {dropdowns.map((kind) => (
            <NotificationDropdown key={kind} role={role} kind={kind} />
          ))}
          <UserMenu role={role} compact={isMobile} />
        </div>
      </header>
      <div className="app-body" style={{ marginTop: HEADER_HEIGHT }}>
        <aside
          className={isMobile ? 'app-sider app-sider-mobile' : 'app-sider'}
          data-testid="app-sider"
          data-collapsed={collapsed}
          style={{ top: HEADER_HEIGHT, height: `calc(100vh - ${HEADER_HEIGHT}px)`, width: siderWidth }}
        >
          <SideMenu
            menu={menu}
            home={home}
            // Closed on a phone too: a collapsed menu pops its open groups up over the page.
            collapsed={collapsed}
            onPrefetch={onPrefetch}
            onNavigate={() => {
              if (isMobile) setCollapsed(true);
            }}
          />
        </aside>
        {isMobile && !collapsed && (
          <div className="app-sider-mask" data-testid="app-sider-mask" onClick={() => setCollapsed(true)} aria-hidden />
        )}
        <div className="app-main" style={{ marginLeft: isMobile ? 0 : siderWidth }} data-large={isLarge}>
          {searchesConflicts && isMobile && (
            <div className="app-mobile-search">
              <ConflictSearch role={role} />
            </div>
          )}
          <main className="app-content" data-testid="app-content">
            {children}
          </main>
          <LegalLinks />
          {/* A customer is asked once to accept a newly published version of the terms or privacy policy. */}
          {role === 'customer' && (
            <Suspense fallback={null}>
              <LegalAcceptance />
            </Suspense>
          )}
          {/* Spec §2: the customer-details modal is available everywhere. */}
          {modalWanted && (
            <Suspense fallback={null}>
              <CustomerDetailsModal />
            </Suspense>
          )}
        </div>
      </div>
    </div>
  );
}
