import { Button, Grid, Layout } from 'antd';
// First: the rules it took from styles.css keep their place before the other sheets the area loads (collaboration.css).
import './area.css';
import LegalLinks from '../components/LegalLinks';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
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

// The customer-details modal (its table and date pickers) loads when first opened, not with every area.
// Only customers are asked to accept new terms; the modal loads with the customer area.
const LegalAcceptance = lazy(() => import('../components/LegalAcceptance'));
// The customer card opens from the header's search or a list: with the pages' texts (not the area's first load).
const CustomerDetailsModal = lazy(() => Promise.all([import('../pages/customerAdmin/CustomerDetailsModal'), loadPageTexts()]).then(([m]) => m));

const { Header, Sider, Content } = Layout;

/**
 * Common layout (spec §2): fixed 75px header (logo, collapse toggle, language
 * switch, user menu; admin: conflict search) and a dark left menu 200px wide,
 * 80px collapsed, 0 on mobile, collapsing below the large breakpoint.
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
  const screens = Grid.useBreakpoint();
  // Before antd's breakpoints are known (the first render), the window's width decides, so the
  // menu and the content are drawn where they stay (no layout shift when the breakpoints arrive).
  const isMobile = screens.md === undefined ? typeof window !== 'undefined' && window.innerWidth < 768 : screens.md === false;
  // Spec §2: the admin header has the conflict box; lawyers search conflicts too (interest/).
  const searchesConflicts = hasRoute(role, 'interest');
  const home = pathFor(role, 'dashboard');
  const isLarge = screens.lg === undefined ? typeof window === 'undefined' || window.innerWidth >= 992 : screens.lg;
  const [collapsed, setCollapsed] = useState(() => typeof window !== 'undefined' && window.innerWidth < 992);
  const dropdowns = headerDropdowns(role);
  useCountPolling(dropdowns);

  useEffect(() => {
    if (isMobile) setCollapsed(true);
  }, [isMobile]);

  const siderWidth = collapsed ? (isMobile ? MENU_MOBILE_WIDTH : MENU_COLLAPSED_WIDTH) : MENU_WIDTH;

  return (
    <Layout className="app-layout" data-testid="app-layout" data-role={role}>
      <Header className="app-header" data-testid="app-header" style={{ height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px` }}>
        <div className="app-header-left">
          <Logo to={home} compact={isMobile} />
          <Button
            type="text"
            className="menu-toggle"
            data-testid="menu-toggle"
            aria-label={collapsed ? t('header.expandMenu') : t('header.collapseMenu')}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
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
      </Header>
      <Layout style={{ marginTop: HEADER_HEIGHT }}>
        <Sider
          className={isMobile ? 'app-sider app-sider-mobile' : 'app-sider'}
          data-testid="app-sider"
          theme="dark"
          width={MENU_WIDTH}
          collapsedWidth={isMobile ? MENU_MOBILE_WIDTH : MENU_COLLAPSED_WIDTH}
          breakpoint="lg"
          collapsible
          collapsed={collapsed}
          onBreakpoint={(broken) => setCollapsed(broken)}
          trigger={null}
          style={{ top: HEADER_HEIGHT, height: `calc(100vh - ${HEADER_HEIGHT}px)` }}
        >
          <SideMenu
            menu={menu}
            home={home}
            // Closed on a phone too: antd's menu in a collapsed sider pops its open groups up over the page.
            collapsed={collapsed}
            onPrefetch={onPrefetch}
            onNavigate={() => {
              if (isMobile) setCollapsed(true);
            }}
          />
        </Sider>
        {isMobile && !collapsed && (
          <div className="app-sider-mask" data-testid="app-sider-mask" onClick={() => setCollapsed(true)} aria-hidden />
        )}
        <Layout className="app-main" style={{ marginLeft: isMobile ? 0 : siderWidth }} data-large={isLarge}>
          {searchesConflicts && isMobile && (
            <div className="app-mobile-search">
              <ConflictSearch role={role} />
            </div>
          )}
          <Content className="app-content" data-testid="app-content">
            {children}
          </Content>
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
        </Layout>
      </Layout>
    </Layout>
  );
}
