import { Button, Card, Empty, Space, Spin, Typography } from 'antd';
import { CheckOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { listNotifications, readAll } from '../../api/collaboration';
import NotificationItem from '../../components/collaboration/NotificationItem';
import { useOpenNotification } from '../../components/collaboration/useOpenNotification';
import '../../components/collaboration/collaboration.css';
import { LIST_PAGE_SIZE } from '../../config/constants';
import { useAreaRole } from '../../routes/pathFor';
import type { DropdownKind, Notification } from '../../types/collaboration';
import PageTitle from '../../components/PageTitle';

/**
 * The full list behind a header dropdown (spec §2 notifications/ and
 * messages/): 10 a page, newest first, "mark all as read", and a click does
 * what the dropdown's does.
 */
function NotificationPage({ titleKey, kind }: { titleKey: string; kind: DropdownKind }) {
  const { t } = useTranslation('notifications');
  const role = useAreaRole();
  const [offset, setOffset] = useState(0);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const list = useLoad(() => listNotifications(kind, offset, LIST_PAGE_SIZE), `${kind}:${offset}`, { results: [], more: false });
  const items = list.data?.results ?? null;
  const more = list.data?.more ?? false;

  const open = useOpenNotification(role, (read) =>
    list.set((l) => l && { ...l, results: l.results.map((x: Notification) => (x.id === read.id ? read : x)) }),
  );

  const markAll = async () => {
    setBusy(true);
    try {
      await readAll();
      setDone(true);
      await list.reload();
    } catch {
      /* notified by the client */
    } finally {
      setBusy(false);
    }
  };

  const page = offset / LIST_PAGE_SIZE + 1;
  const anyUnread = !!items?.some((n) => n.unread);
  return (
    <div className="page" data-testid={`${kind}-page`}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <PageTitle titleKey={titleKey} />
        <Button icon={<CheckOutlined />} onClick={() => void markAll()} loading={busy} disabled={!anyUnread && offset === 0} data-testid={`${kind}-read-all`}>
          {t('readAll')}
        </Button>
      </Space>
      <Card styles={{ body: { padding: 0 } }}>
        {items === null ? (
          <div style={{ padding: 32, textAlign: 'center' }}>
            <Spin />
          </div>
        ) : items.length === 0 ? (
          <Empty style={{ padding: 24 }} description={t(`${kind}.empty`)} />
        ) : (
          <div data-testid={`${kind}-list`} aria-live="polite">
            {items.map((n) => (
              <NotificationItem key={n.id} n={n} onOpen={(x) => void open(x)} testId={`${kind}-item`} />
            ))}
          </div>
        )}
      </Card>
      {done && (
        <Typography.Paragraph type="success" style={{ marginTop: 8 }} data-testid={`${kind}-read-all-done`}>
          {t('readAllDone')}
        </Typography.Paragraph>
      )}
      {(offset > 0 || more) && (
        <Space className="cursor-pager" style={{ marginTop: 16 }} data-testid={`${kind}-pager`}>
          <Button icon={<LeftOutlined />} disabled={offset === 0 || items === null} onClick={() => setOffset((o) => Math.max(0, o - LIST_PAGE_SIZE))} data-testid={`${kind}-pager-previous`}>
            {t('pager.previous', { ns: 'common' })}
          </Button>
          <span data-testid={`${kind}-pager-page`}>{t('pager.page', { ns: 'common', page })}</span>
          <Button disabled={!more || items === null} onClick={() => setOffset((o) => o + LIST_PAGE_SIZE)} data-testid={`${kind}-pager-next`}>
            {t('pager.next', { ns: 'common' })} <RightOutlined />
          </Button>
        </Space>
      )}
    </div>
  );
}

export function NotificationsPage({ titleKey }: { titleKey: string }) {
  return <NotificationPage titleKey={titleKey} kind="notifications" />;
}

export function MessagesPage({ titleKey }: { titleKey: string }) {
  return <NotificationPage titleKey={titleKey} kind="messages" />;
}
