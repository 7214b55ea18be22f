import { Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { PlusOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useMoreList } from '../../api/paging';
import { useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import Link from '../../components/Link';
import MessageAlert from '../../components/MessageAlert';
import { listContacts, sendContactPasswordLink, setContactActive } from '../../api/users';
import { customerDetails } from '../../api/customerAdmin';
import ListEmpty from '../../components/ListEmpty';
import { customerLabel } from '../../components/CustomerSelect';
import type { Contact } from '../../types/users';
import { useSession } from '../../store/session';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';

/**
 * <prefix>users/: the company's contacts, newest first, 10 at a time, with
 * status, (de)activation and a new set-password link. Staff see a named
 * customer's contacts (customers/users/{customer_uid}/).
 */
export default function ContactList({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('users');
  const { message } = useFeedback();
  const user = useSession((s) => s.user);
  const role = useAreaRole();
  const { customer_uid: customer } = useParams();
  // Staff see whose contacts these are; the customer side needs no name.
  const customerName = useLoad(() => customerDetails(customer!).then(customerLabel), customer ?? null).data;
  const list = useMoreList((cursor) => listContacts({ customer, cursor }), customer ?? '');
  const [busy, setBusy] = useState<string | null>(null);
  const created = (useLocation().state as { created?: string } | null)?.created;

  const resend = async (c: Contact) => {
    setBusy(c.uid);
    try {
      await sendContactPasswordLink(c.uid);
      void message.success(t('list.linkSent', { email: c.email }));
    } catch {
      /* notified */
    } finally {
      setBusy(null);
    }
  };

  const toggle = async (c: Contact) => {
    setBusy(c.uid);
    try {
      const updated = await setContactActive(c.uid, !c.active);
      list.setRows((old) => old.map((r) => (r.uid === c.uid ? updated : r)));
      void message.success(updated.active ? t('list.activated') : t('list.deactivated'));
    } catch {
      /* notified */
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="page" data-testid="contacts-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <PageTitle titleKey={titleKey}>
          {customerName && <Typography.Text type="secondary" data-testid="contacts-customer">{` · ${customerName}`}</Typography.Text>}
        </PageTitle>
        <Link to={customer ? pathFor(role, 'contactCreate', {}, { customer }) : pathFor(role, 'contactCreate')}>
          <Button type="primary" icon={<PlusOutlined />} data-testid="contacts-create">
            {t('list.create')}
          </Button>
        </Link>
      </Space>
      <MessageAlert messages={created ? [t('list.created', { email: created })] : null} type="success" testId="contacts-created" />
      <Card>
        <Table<Contact>
          rowKey="uid"
          data-testid="contacts-table"
          loading={list.loading && list.rows.length > 0}
          dataSource={list.rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: list.loading ? <TableSkeleton /> : <ListEmpty error={list.error} onRetry={() => void list.reload()} /> }}
          onRow={(r) => ({ 'data-testid': `contact-row-${r.email}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('fields.name'), key: 'name', render: (_, r) => r.full_name },
            { title: t('fields.email'), dataIndex: 'email', key: 'email' },
            { title: t('fields.phone'), dataIndex: 'phone', key: 'phone', render: (v: string | null) => v || '–' },
            {
              title: t('fields.permissions'),
              key: 'permissions',
              render: (_, r) => (
                <Space size={[0, 4]} wrap>
                  {r.permissions.map((p) => (
                    <Tag key={p}>{t(`permissions.${p}`)}</Tag>
                  ))}
                </Space>
              ),
            },
            {
              title: t('fields.status'),
              key: 'status',
              render: (_, r) => (
                <Tag color={r.active ? 'green' : 'default'} data-testid={`contact-status-${r.uid}`}>
                  {r.active ? t('status.active') : t('status.inactive')}
                </Tag>
              ),
            },
            {
              title: t('list.actions'),
              key: 'actions',
              // A contact may not change itself (the server answers 403).
              render: (_, r) =>
                r.uid === user?.uid ? null : (
                  <Space>
                    <Link to={pathFor(role, 'contactEdit', { contact_id: r.uid })} data-testid={`contact-edit-${r.uid}`}>
                      {t('list.edit')}
                    </Link>
                    <Popconfirm
                      title={r.active ? t('list.confirmDeactivate') : t('list.confirmActivate')}
                      okText={t('list.yes')}
                      cancelText={t('list.no')}
                      okButtonProps={{ 'data-testid': `contact-toggle-ok-${r.uid}` } as Record<string, string>}
                      onConfirm={() => toggle(r)}
                    >
                      <Button size="small" danger={r.active} loading={busy === r.uid} data-testid={`contact-toggle-${r.uid}`}>
                        {r.active ? t('list.deactivate') : t('list.activate')}
                      </Button>
                    </Popconfirm>
                    {r.active && (
                      <Button size="small" loading={busy === r.uid} onClick={() => void resend(r)} data-testid={`contact-resend-${r.uid}`}>
                        {t('list.resendLink')}
                      </Button>
                    )}
                  </Space>
                ),
            },
          ]}
        />
        {list.hasMore && (
          <div style={{ textAlign: 'center', marginTop: 16 }}>
            <Button onClick={() => void list.more()} loading={list.loading} data-testid="contacts-more">
              {t('list.more')}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
