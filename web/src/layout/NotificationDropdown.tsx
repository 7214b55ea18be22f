// Drawn without antd (components/plain): every area's header draws these, on a first page that loads no antd
// (src/budget.test.ts). The opened list draws antd's (NotificationPanel.tsx, NotificationItem): it loads, with antd's
// theme, when the button is reached for or first pressed, and a plain one stands in until it is in.
import BellOutlined from '@ant-design/icons-svg/es/asn/BellOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import MessageOutlined from '@ant-design/icons-svg/es/asn/MessageOutlined';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dropdownOpened, useCounts } from '../api/notificationCounts';
import { themedModule } from '../components/themed';
import type { Role } from '../auth/roles';
import PlainBadge from '../components/plain/PlainBadge';
import Button from '../components/plain/PlainButton';
import Icon from '../components/plain/PlainIcon';
import PlainMenuButton from '../components/plain/PlainMenuButton';
import { DROPDOWN_WIDTH } from '../config/constants';
import type { DropdownKind } from '../types/collaboration';
import '../components/collaboration/collaboration.css';

/** The open dropdown's list, in antd's theme: loaded when a dropdown is pointed at, focused or first opened. */
let loading: ReturnType<typeof loadPanel> | null = null;
const loadPanel = () => themedModule(() => import('./NotificationPanel'));
const preloadPanel = () => void (loading ??= loadPanel()).catch(() => (loading = null));
const NotificationPanel = lazy(() => (loading ??= loadPanel()));

/** The panel's place while its module loads: its title and a spinner, at its width (no antd). */
function PanelLoading({ kind }: { kind: DropdownKind }) {
  const { t } = useTranslation('notifications');
  return (
    <div className="notification-dropdown" style={{ width: DROPDOWN_WIDTH }} data-testid={`header-${kind}-loading`} aria-busy="true">
      <div className="notification-dropdown-title">
        <strong className="plain-text">{t(`${kind}.title`)}</strong>
      </div>
      <div className="plain-menu-loading">
        <Icon icon={LoadingOutlined} spin style={{ fontSize: 20 }} />
      </div>
    </div>
  );
}

/**
 * A header dropdown (spec §2, §4, §7, §9): the messages one or the
 * notifications one. The badge counts unseen items (polled by the layout);
 * opening it sets the badge to 0 at once (and tells the server) and shows
 * the newest items.
 */
export default function NotificationDropdown({ role, kind }: { role: Role; kind: DropdownKind }) {
  const { t } = useTranslation('notifications');
  const counts = useCounts();
  const [open, setOpen] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) void dropdownOpened(kind);
  };

  const count = counts[kind];
  return (
    <PlainMenuButton
      open={open}
      onOpenChange={onOpenChange}
      placement="bottomRight"
      phoneEnd
      popupClassName="notification-popover"
      panelLabel={t(`${kind}.title`)}
      panel={(close) => (
        <Suspense fallback={<PanelLoading kind={kind} />}>
          <NotificationPanel role={role} kind={kind} close={close} />
        </Suspense>
      )}
    >
      {(trigger) => (
        <Button
          type="text"
          className="header-icon-button"
          aria-label={t(`${kind}.open`, { count })}
          data-testid={`header-${kind}`}
          onPointerEnter={preloadPanel}
          onFocus={preloadPanel}
          icon={
            <PlainBadge count={count} size="small" overflowCount={99} data-testid={`header-${kind}-badge`} data-count={count}>
              <Icon icon={kind === 'messages' ? MessageOutlined : BellOutlined} style={{ fontSize: 20 }} />
            </PlainBadge>
          }
          {...trigger}
        />
      )}
    </PlainMenuButton>
  );
}

/** The dropdowns of a role's header (spec §2): messages not for admin or sales; notifications not for admin. */
export function headerDropdowns(role: Role): DropdownKind[] {
  const kinds: DropdownKind[] = [];
  if (role !== 'admin' && role !== 'sales') kinds.push('messages');
  if (role !== 'admin') kinds.push('notifications');
  return kinds;
}
