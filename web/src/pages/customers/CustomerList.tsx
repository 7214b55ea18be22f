import { Badge, Button, Card, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useCursorList } from '../../api/paging';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import Link from '../../components/Link';
import { activateUser, approveCustomer, deactivateUser, fetchCustomers, sendActivationLink } from '../../api/customers';
import type { CustomerRow, CustomerState } from '../../types/customers';
import { fetchCustomerList } from '../../api/customerAdmin';
import type { CustomerListStatus } from '../../types/customerAdmin';
import { refreshBubbles, useBubbles } from '../../api/bubbles';
import ListEmpty from '../../components/ListEmpty';
import LinkTabs from '../../components/LinkTabs';
import type { RouteId } from '../../routes/catalogue';
import { hasRoute, pathFor } from '../../routes/pathFor';
import { openCustomerDetails } from '../../store/customerDetails';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';
import { formatDateTime } from '../../format';
import PageTitle from '../../components/PageTitle';

/** Who looks at the list: admin acts on customers, sales persons edit them, lawyers only read. */
export type ListViewer = 'admin' | 'sales' | 'lawyer';

/** The customer lists of each viewer, as tabs (lawyers reach inactive customers, sales all/active/inactive). */
const CUSTOMER_TABS: Record<ListViewer, Array<{ route: RouteId; label: string; badge?: 'pending_customers' }>> = {
  admin: [
    { route: 'customersActive', label: 'tabs.active' },
    { route: 'customersPending', label: 'tabs.pending', badge: 'pending_customers' },
    { route: 'customersInactive', label: 'tabs.inactive' },
  ],
  lawyer: [
    { route: 'customersActive', label: 'tabs.active' },
    { route: 'customersInactive', label: 'tabs.inactive' },
  ],
  sales: [
    { route: 'customersAll', label: 'tabs.all' },
    { route: 'customersActive', label: 'tabs.active' },
    { route: 'customersInactive', label: 'tabs.inactive' },
  ],
};

function CustomerTabs({ viewer }: { viewer: ListViewer }) {
  const { t } = useTranslation('customers');
  const { pathname } = useLocation();
  const bubbles = useBubbles();
  const tabs = CUSTOMER_TABS[viewer].filter((x) => hasRoute(viewer, x.route));
  const slash = (p: string) => (p.endsWith('/') ? p : `${p}/`);
  const active = tabs.find((x) => slash(pathFor(viewer, x.route)) === slash(pathname))?.route;
  return (
    <LinkTabs
      active={active}
      testId="customer-tabs"
      items={tabs.map((x) => ({
        key: x.route,
        to: pathFor(viewer, x.route),
        testId: `customer-tab-${x.route}`,
        label: (
          <>
            {t(x.label)}
            {x.badge && bubbles[x.badge] > 0 && <Badge count={bubbles[x.badge]} size="small" />}
          </>
        ),
      }))}
    />
  );
}

/**
 * Customer lists (spec §2): admin customers/, customers/pending/,
 * customers/inactive/ (approve / resend activation / edit / deactivate /
 * activate); sales persons customers/ (all), active/, inactive/ (edit);
 * lawyers active and inactive, read-only. 10 per page, newest first,
 * key-cursor paging, search by name, e-mail or company; the name opens the
 * customer details modal.
 */
export default function CustomerList({
  state,
  titleKey,
  viewer = 'admin',
}: {
  state: CustomerState | CustomerListStatus;
  titleKey: string;
  viewer?: ListViewer;
}) {
  const { t } = useTranslation('customers');
  const { message } = useFeedback();
  // Each search (the same words again too) starts again at page 1, as does another list.
  const [search, setSearch] = useState({ text: '', n: 0 });
  const [busy, setBusy] = useState<string | null>(null);
  const list = useCursorList<CustomerRow>(
    (cursor) => (state === 'all' ? fetchCustomerList(state, cursor, search.text) : fetchCustomers(state, cursor, search.text)),
    `${state}:${search.n}`,
  );
  const { rows, loading, error } = list;

  const onSearch = (text: string) => setSearch((old) => ({ text, n: old.n + 1 }));

  const act = async (row: CustomerRow, action: () => Promise<{ message?: string } | unknown>, done: string) => {
    setBusy(row.uid);
    try {
      await action();
      void message.success(t(done));
      void refreshBubbles();
      list.reload();
    } catch {
      /* the API client shows the error */
    } finally {
      setBusy(null);
    }
  };

  const columns: ColumnsType<CustomerRow> = [
    {
      title: t('name'),
      key: 'name',
      // The name opens the customer details modal.
      render: (_, r) => (
        <Typography.Link onClick={() => openCustomerDetails(r.uid)} data-testid={`customer-name-${r.email}`}>
          {`${r.first_name} ${r.last_name}`}
        </Typography.Link>
      ),
    },
    {
      title: t('company'),
      key: 'company',
      render: (_, r) =>
        r.customer_type === 'Company' ? (
          <Space orientation="vertical" size={0}>
            <span>{r.company_name}</span>
            <Typography.Text type="secondary" className="nowrap">{r.company_registration_number}</Typography.Text>
          </Space>
        ) : (
          <Tag>{t('individual')}</Tag>
        ),
    },
    { title: t('email'), dataIndex: 'email', key: 'email' },
    { title: t('phone'), dataIndex: 'phone', key: 'phone' },
    {
      title: t('registered'),
      key: 'created_at',
      render: (_, r) => formatDateTime(r.created_at),
    },
    ...(state === 'pending' || state === 'all'
      ? [
          {
            title: t('status'),
            key: 'status',
            render: (_: unknown, r: CustomerRow) =>
              r.state !== 'pending' ? <Tag>{t(r.state)}</Tag> : r.approved_at ? <Tag color="blue">{t('awaitingActivation')}</Tag> : <Tag color="orange">{t('awaitingApproval')}</Tag>,
          },
        ]
      : []),
    {
      title: t('actions'),
      key: 'actions',
      render: (_, r) => {
        if (viewer === 'lawyer') return null;
        const edit = (
          <>
            <Link to={pathFor(viewer, 'customerUpdate', { profile_uid: r.uid })} data-testid={`edit-${r.email}`}>
              {t('edit')}
            </Link>
            {r.state !== 'pending' && (
              <>
                <Link to={pathFor(viewer, 'customerManagePackage', { customer_uid: r.uid })} data-testid={`packages-${r.email}`}>
                  {t('packages')}
                </Link>
                <Link to={pathFor(viewer, 'customerUsers', { customer_uid: r.uid })} data-testid={`users-${r.email}`}>
                  {t('users')}
                </Link>
              </>
            )}
          </>
        );
        if (viewer === 'sales') return <Space wrap>{edit}</Space>;
        if (state === 'pending') {
          return r.approved_at ? (
            <Button size="small" loading={busy === r.uid} data-testid={`resend-${r.email}`} onClick={() => act(r, () => sendActivationLink(r.uid), 'linkSent')}>
              {t('resendActivation')}
            </Button>
          ) : (
            <Button type="primary" size="small" loading={busy === r.uid} data-testid={`approve-${r.email}`} onClick={() => act(r, () => approveCustomer(r.uid), 'approved')}>
              {t('approve')}
            </Button>
          );
        }
        if (state === 'active') {
          return (
            <Space>
              {edit}
              <Popconfirm
                title={t('deactivateConfirm')}
                okText={t('yes')}
                cancelText={t('no')}
                okButtonProps={{ 'data-testid': `deactivate-confirm-${r.email}` } as Record<`data-${string}`, string>}
                onConfirm={() => act(r, () => deactivateUser(r.uid), 'deactivated')}
              >
                <Button danger size="small" loading={busy === r.uid} data-testid={`deactivate-${r.email}`}>
                  {t('deactivate')}
                </Button>
              </Popconfirm>
            </Space>
          );
        }
        return (
          <Space>
            {edit}
            <Button size="small" loading={busy === r.uid} data-testid={`activate-${r.email}`} onClick={() => act(r, () => activateUser(r.uid), 'activated')}>
              {t('activate')}
            </Button>
          </Space>
        );
      },
    },
  ];

  return (
    <div className="page" data-testid={`customers-${state}`}>
      <PageTitle titleKey={titleKey} />
      <Card>
        <CustomerTabs viewer={viewer} />
        {viewer !== 'lawyer' && (
          <Link to={pathFor(viewer, 'customerCreate')} data-testid="customer-create-link" style={{ float: 'right' }}>
            <Button type="primary">{t('createCustomer')}</Button>
          </Link>
        )}
        <Input.Search
          allowClear
          placeholder={t('searchPlaceholder')}
          onSearch={onSearch}
          style={{ maxWidth: 360, marginBottom: 16 }}
          data-testid="customers-search"
        />
        <Table<CustomerRow>
          rowKey="uid"
          columns={viewer === 'lawyer' ? columns.filter((c) => c.key !== 'actions') : columns}
          dataSource={rows}
          loading={loading && rows.length > 0}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: loading ? <TableSkeleton /> : <ListEmpty error={error} onRetry={list.reload} /> }}
          data-testid="customers-table"
        />
        <Space style={{ marginTop: 16 }}>
          <Button disabled={!list.hasPrevious || loading} onClick={list.previous} data-testid="customers-prev">
            {t('previous')}
          </Button>
          <span>{t('page', { page: list.page })}</span>
          <Button disabled={!list.hasNext || loading} onClick={list.next} data-testid="customers-next">
            {t('next')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}

export function ActiveCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="active" titleKey={titleKey} />;
}

export function PendingCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="pending" titleKey={titleKey} />;
}

export function InactiveCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="inactive" titleKey={titleKey} />;
}

/** Sales persons: all, active and inactive customers (edit only). */
export function SalesAllCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="all" titleKey={titleKey} viewer="sales" />;
}
export function SalesActiveCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="active" titleKey={titleKey} viewer="sales" />;
}
export function SalesInactiveCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="inactive" titleKey={titleKey} viewer="sales" />;
}

/** Lawyers: active and inactive customers, read-only. */
export function LawyerActiveCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="active" titleKey={titleKey} viewer="lawyer" />;
}
export function LawyerInactiveCustomers({ titleKey }: { titleKey: string }) {
  return <CustomerList state="inactive" titleKey={titleKey} viewer="lawyer" />;
}
