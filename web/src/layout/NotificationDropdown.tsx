// Badge without Badge.Ribbon and Dropdown without Dropdown.Button (with Space): every area's header draws these.
import Badge from 'antd/es/badge/Badge';
import Dropdown from 'antd/es/dropdown/dropdown';
import { Button } from 'antd';
import { BellOutlined, MessageOutlined } from '@ant-design/icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dropdownOpened, useCounts } from '../api/notificationCounts';
import type { Role } from '../auth/roles';
import type { DropdownKind } from '../types/collaboration';
import '../components/collaboration/collaboration.css';

/** The open dropdown's list: loaded when a dropdown first opens. */
const NotificationPanel = lazy(() => import('./NotificationPanel'));

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
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      open={open}
      onOpenChange={onOpenChange}
      classNames={{ root: 'notification-popover' }}
      destroyOnHidden
      popupRender={() => (
        <div className="notification-popover-box">
          <Suspense fallback={<div className="notification-dropdown" style={{ width: 300, height: 120 }} />}>
            <NotificationPanel role={role} kind={kind} close={() => setOpen(false)} />
          </Suspense>
        </div>
      )}
    >
      <Button
        type="text"
        className="header-icon-button"
        aria-label={t(`${kind}.open`, { count })}
        data-testid={`header-${kind}`}
        icon={
          <Badge count={count} size="small" overflowCount={99} data-testid={`header-${kind}-badge`} data-count={count}>
            {kind === 'messages' ? <MessageOutlined style={{ fontSize: 20 }} /> : <BellOutlined style={{ fontSize: 20 }} />}
          </Badge>
        }
      />
    </Dropdown>
  );
}

/** The dropdowns of a role's header (spec §2): messages not for admin or sales; notifications not for admin. */
export function headerDropdowns(role: Role): DropdownKind[] {
  const kinds: DropdownKind[] = [];
  if (role !== 'admin' && role !== 'sales') kinds.push('messages');
  if (role !== 'admin') kinds.push('notifications');
  return kinds;
}
