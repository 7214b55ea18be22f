// Drawn without antd (components/plain): every area's first page draws this menu, and that page loads no antd
// (src/budget.test.ts). The avatar is antd's Avatar's look (components/plain/menu.css `.plain-avatar`).
import FileTextOutlined from '@ant-design/icons-svg/es/asn/FileTextOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import LogoutOutlined from '@ant-design/icons-svg/es/asn/LogoutOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Role } from '../auth/roles';
import { logout } from '../auth/flow';
import { setUser, useSession } from '../store/session';
import { fetchProfile } from '../api/auth';
import { avatarSrc, initialOf } from '../components/avatar';
import Icon from '../components/plain/PlainIcon';
import PlainMenuButton, { type PlainMenuEntry } from '../components/plain/PlainMenuButton';
import { AVATAR_SIZE } from '../config/constants';
import { hasRoute, pathFor } from '../routes/pathFor';

let lastImageRefresh = 0;

/**
 * The image URL is presigned and expires (15 minutes): when the browser can
 * no longer load it, reload the session user for a fresh URL, at most once a minute.
 */
function refreshExpiredImage(): boolean {
  const now = Date.now();
  if (now - lastImageRefresh > 60_000) {
    lastImageRefresh = now;
    fetchProfile({ suppressError: true })
      .then((u) => setUser(u))
      .catch(() => undefined);
  }
  return false;
}

/** User menu: Profile (not admin), who opened our data and my data (the customer), Change Password, Two-factor authentication, Log out. */
export default function UserMenu({ role, compact = false }: { role: Role; compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const name = user?.full_name?.trim() || user?.email || '';
  const src = avatarSrc(user?.image);

  const items: PlainMenuEntry[] = [
    ...(!hasRoute(role, 'profile')
      ? []
      : [{ key: 'profile', icon: <Icon icon={UserOutlined} />, label: <span data-testid="user-menu-profile">{t('userMenu.profile')}</span> }]),
    // The customer's part of the audit trail: who at the firm opened its cases and documents.
    ...(!hasRoute(role, 'ownAudit')
      ? []
      : [{ key: 'ownAudit', icon: <Icon icon={SafetyOutlined} />, label: <span data-testid="user-menu-own-audit">{t('userMenu.ownAudit')}</span> }]),
    // The customer's data rights: an export of everything about it.
    ...(!hasRoute(role, 'myData')
      ? []
      : [{ key: 'myData', icon: <Icon icon={FileTextOutlined} />, label: <span data-testid="user-menu-my-data">{t('userMenu.myData')}</span> }]),
    { key: 'changePassword', icon: <Icon icon={LockOutlined} />, label: <span data-testid="user-menu-change-password">{t('userMenu.changePassword')}</span> },
    { key: 'update2fa', icon: <Icon icon={SafetyOutlined} />, label: <span data-testid="user-menu-2fa">{t('userMenu.twoFactor')}</span> },
    { type: 'divider' },
    { key: 'logout', icon: <Icon icon={LogoutOutlined} />, danger: true, label: <span data-testid="user-menu-logout">{t('userMenu.logout')}</span> },
  ];

  const onClick = (key: string) => {
    if (key === 'logout') {
      // POST /api/logout/, then clear the session and go to /login (even if the call fails).
      void logout();
      return;
    }
    navigate(pathFor(role, key as 'profile' | 'ownAudit' | 'myData' | 'changePassword' | 'update2fa'));
  };

  const size = AVATAR_SIZE * 0.75;
  return (
    <PlainMenuButton items={items} onClick={onClick} placement="bottomRight">
      {(trigger) => (
        <button
          type="button"
          className="user-menu-trigger"
          data-testid="user-menu"
          aria-label={compact ? t('userMenu.open') : undefined}
          title={t('userMenu.open')}
          {...trigger}
        >
          {/* antd's Avatar: the image (kept when it fails: refreshExpiredImage fetches a fresh URL), else the initial. */}
          <span
            aria-hidden
            className="plain-avatar"
            style={{ width: size, height: size, fontSize: 18 }}
            data-testid="header-avatar"
            data-has-image={src ? 'true' : 'false'}
          >
            {src ? <img src={src} alt="" onError={refreshExpiredImage} /> : initialOf(user)}
          </span>
          {!compact && <span className="plain-text user-menu-name">{name}</span>}
        </button>
      )}
    </PlainMenuButton>
  );
}
