import { Badge, Button, Empty, Popover, Spin, Typography } from 'antd';
import { BellOutlined, MessageOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listNotifications, markSeen } from '../api/collaboration';
import { clearCount, useCounts } from '../api/notificationCounts';
import type { Role } from '../auth/roles';
import NotificationItem from '../components/collaboration/NotificationItem';
import { useOpenNotification } from '../components/collaboration/useOpenNotification';
import '../components/collaboration/collaboration.css';
import { DROPDOWN_LIST_MAX_HEIGHT, DROPDOWN_WIDTH, LIST_PAGE_SIZE } from '../config/constants';
import { hasRoute, pathFor } from '../routes/pathFor';
import type { DropdownKind, Notification } from '../types/collaboration';

/**
 * A header dropdown (spec §2, §4, §7, §9): the messages one or the
 * notifications one. The badge counts unseen items (polled by the layout);
 * opening it marks them seen (badge → 0) and shows the 10 newest, 300 px
 * wide, the list at most 400 px high; a click reads the item and opens it.
 */
export default function NotificationDropdown({ role, kind }: { role: Role; kind: DropdownKind }) {
  const { t } = useTranslation('notifications');
  const counts = useCounts();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Notification[] | null>(null);
  const page = kind === 'messages' ? 'messages' : 'notifications';
  const hasPage = hasRoute(role, page);
  const openItem = useOpenNotification(role, () => setOpen(false));

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) return;
    clearCount(kind);
    void markSeen(kind).catch(() => undefined);
    setItems(null);
    listNotifications(kind, 0, LIST_PAGE_SIZE)
      .then((l) => setItems(l.results))
      .catch(() => setItems([]));
  };

  const content = (
    <div className="notification-dropdown" style={{ width: DROPDOWN_WIDTH }} data-testid={`header-${kind}-dropdown`}>
      <div className="notification-dropdown-title">
        <Typography.Text strong>{t(`${kind}.title`)}</Typography.Text>
      </div>
      <div className="notification-dropdown-list" style={{ maxHeight: DROPDOWN_LIST_MAX_HEIGHT, overflowY: 'auto' }} data-testid={`header-${kind}-list`}>
        {items === null ? (
          <div style={{ padding: 24, textAlign: 'center' }}>
            <Spin />
          </div>
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`${kind}.empty`)} />
        ) : (
          items.map((n) => <NotificationItem key={n.id} n={n} onOpen={(x) => void openItem(x)} testId={`header-${kind}-item`} />)
        )}
      </div>
      {hasPage && (
        <div className="notification-dropdown-footer">
          <Link to={pathFor(role, page)} onClick={() => setOpen(false)} data-testid={`header-${kind}-all`}>
            {t('showAll')}
          </Link>
        </div>
      )}
    </div>
  );

  const count = counts[kind];
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      arrow={false}
      open={open}
      onOpenChange={onOpenChange}
      content={content}
      classNames={{ root: 'notification-popover' }}
      styles={{ container: { padding: 0 } }}
      destroyOnHidden
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
    </Popover>
  );
}

/** The dropdowns of a role's header (spec §2): messages not for admin or sales; notifications not for admin. */
export function headerDropdowns(role: Role): DropdownKind[] {
  const kinds: DropdownKind[] = [];
  if (role !== 'admin' && role !== 'sales') kinds.push('messages');
  if (role !== 'admin') kinds.push('notifications');
  return kinds;
}
