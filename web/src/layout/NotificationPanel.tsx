import { Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import Link from '../components/Link';
import { listNotifications } from '../api/collaboration';
import { useList } from '../api/useList';
import type { Role } from '../auth/roles';
import NotificationItem from '../components/collaboration/NotificationItem';
import { useOpenNotification } from '../components/collaboration/useOpenNotification';
import { DROPDOWN_LIST_MAX_HEIGHT, DROPDOWN_WIDTH, LIST_PAGE_SIZE } from '../config/constants';
import { hasRoute, pathFor } from '../routes/pathFor';
import type { DropdownKind } from '../types/collaboration';

/**
 * The open header dropdown (loaded with antd's theme when the dropdown is reached for or first opened, so the
 * header loads no antd: NotificationDropdown.tsx; the opening marks its category seen: api/notificationCounts.ts
 * `dropdownOpened`): lists the 10 newest, 300 px wide, the list at most 400 px
 * high; a click reads the item and opens it.
 */
export default function NotificationPanel({ role, kind, close }: { role: Role; kind: DropdownKind; close: () => void }) {
  const { t } = useTranslation('notifications');
  const page = kind === 'messages' ? 'messages' : 'notifications';
  const openItem = useOpenNotification(role, close);

  const items = useList(() => listNotifications(kind, 0, LIST_PAGE_SIZE).then((l) => l.results), kind).rows;

  return (
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
      {hasRoute(role, page) && (
        <div className="notification-dropdown-footer">
          <Link to={pathFor(role, page)} onClick={close} data-testid={`header-${kind}-all`}>
            {t('showAll')}
          </Link>
        </div>
      )}
    </div>
  );
}
