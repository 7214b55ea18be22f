import { Badge, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Notification } from '../../types/collaboration';
import { formatDateTime } from '../../format';
import { notificationLines, relativeTimeOf, VERB_ICONS } from './notificationView';

/**
 * One notification in a dropdown or on a page: icon, translated text (and a
 * second line: a message's first words or the case's subject), relative time;
 * unread ones are marked (bold, a dot).
 */
export default function NotificationItem({ n, onOpen, testId }: { n: Notification; onOpen: (n: Notification) => void; testId: string }) {
  const { t, i18n } = useTranslation('notifications');
  const { text, detail } = notificationLines(t, n);
  return (
    <button
      type="button"
      className={n.unread ? 'notification-item notification-item-unread' : 'notification-item'}
      data-testid={testId}
      data-unread={n.unread ? 'true' : 'false'}
      data-verb={n.verb}
      onClick={() => onOpen(n)}
    >
      <span className="notification-item-icon" aria-hidden>
        {VERB_ICONS[n.verb] ?? VERB_ICONS.case_created}
      </span>
      <span className="notification-item-body">
        <span className="notification-item-text">{text}</span>
        {detail && (
          <Typography.Text type="secondary" className="notification-item-detail" ellipsis>
            {detail}
          </Typography.Text>
        )}
        <Typography.Text type="secondary" className="notification-item-time">
          <time dateTime={n.timestamp} title={formatDateTime(n.timestamp)}>
            {relativeTimeOf(n.timestamp, i18n.language)}
          </time>
        </Typography.Text>
      </span>
      {n.unread && <Badge status="processing" className="notification-item-dot" title={t('unread')} />}
    </button>
  );
}
