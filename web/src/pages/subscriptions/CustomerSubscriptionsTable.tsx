/**
 * The customer subscriptions table (spec §2 shared UI pieces) with its row
 * actions: change service, automatic update date, activate, delete (with the
 * spec's confirmations and messages) and the CSV time report.
 */
import { DownloadOutlined, MoreOutlined } from '@ant-design/icons';
import { serviceName } from '../../components/names';
import { Button, Dropdown, Modal, Space, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import type { ColumnsType } from 'antd/es/table';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activateService, deleteService } from '../../api/subscriptions';
import type { PurchasedService } from '../../types/subscriptions';
import { useSession } from '../../store/session';
import {
  changesRows,
  consumedText,
  CONSULTANCY_SERVICE_ID,
  formatHours,
  isExternalLawyer,
  limitText,
  remaining,
  showsRowActions,
  startsLater,
  STATUS_COLORS,
} from './format';
import { useFeedback } from '../../layout/feedback';
import { formatDate, formatDateTime } from '../../format';

// The dialogs (DatePicker, Form) load when one is opened.
const modals = () => import('./SubscriptionModals');
const ChangeServiceModal = lazy(() => modals().then((m) => ({ default: m.ChangeServiceModal })));
const AutoUpdateModal = lazy(() => modals().then((m) => ({ default: m.AutoUpdateModal })));
const TimeReportModal = lazy(() => modals().then((m) => ({ default: m.TimeReportModal })));

const NS = 'subscriptions';

function display(v: string | null | undefined): string {
  return v ? formatDateTime(v) : '-';
}

export interface CustomerSubscriptionsTableProps {
  rows: PurchasedService[];
  loading?: boolean;
  /** Called after a row changed (the caller reloads `customer/{uid}/`). */
  onChanged?: () => void;
}

export default function CustomerSubscriptionsTable({ rows, loading, onChanged }: CustomerSubscriptionsTableProps) {
  const { t } = useTranslation(NS);
  const { message } = useFeedback();
  const user = useSession((s) => s.user);
  const [editing, setEditing] = useState<PurchasedService | null>(null);
  const [autoRow, setAutoRow] = useState<PurchasedService | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'delete' | 'activate'; row: PurchasedService } | null>(null);
  const [reportRow, setReportRow] = useState<PurchasedService | null>(null);

  if (isExternalLawyer(user)) return null;
  const actions = showsRowActions(user);
  const canChange = changesRows(user);

  const columns: ColumnsType<PurchasedService> = [
    { title: t('columns.service'), key: 'service', render: (_, r) => <span data-testid={`sub-name-${r.id}`}>{r.service_plan?.name ?? serviceName(r.service.id, r.service.name)}</span> },
    { title: t('columns.limit'), key: 'limit', render: (_, r) => <span data-testid={`sub-limit-${r.id}`}>{limitText(r)}</span> },
    { title: t('columns.consumed'), key: 'consumed', render: (_, r) => <span data-testid={`sub-consumed-${r.id}`}>{consumedText(r)}</span> },
    {
      // What is left: limit − consumed, with a bar of what is used.
      title: t('columns.left'),
      key: 'left',
      render: (_, r) => {
        const left = remaining(r);
        if (!left) return '-';
        const hours = r.service.id === CONSULTANCY_SERVICE_ID;
        return (
          <div style={{ minWidth: 120 }} data-testid={`sub-left-${r.id}`}>
            <span className="nowrap">{hours ? t('left.hours', { hours: formatHours(left.left) }) : t('left.uses', { count: left.left })}</span>
            {/* A plain bar (the dashboard's budget has no room for antd's Progress). */}
            <div
              className="used-bar"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={left.percentUsed}
              aria-label={t('left.used', { percent: left.percentUsed })}
            >
              <span style={{ width: `${left.percentUsed}%`, background: left.percentUsed >= 90 ? '#cf1322' : left.percentUsed >= 70 ? '#d46b08' : '#389e0d' }} />
            </div>
          </div>
        );
      },
    },
    { title: t('columns.package'), key: 'package', render: (_, r) => r.packages?.name ?? '-' },
    {
      title: t('columns.status'),
      key: 'status',
      render: (_, r) =>
        // An advance purchase is not 'Deactivated': it starts when the current one ends.
        startsLater(r) ? (
          <Space orientation="vertical" size={0}>
            <Tag color="blue" data-testid={`sub-advance-${r.id}`}>
              {t('status.advance')}
            </Tag>
            <Typography.Text type="secondary" data-testid={`sub-starts-${r.id}`}>
              {t('status.startsLater', { date: formatDate(r.start_date) })}
            </Typography.Text>
          </Space>
        ) : (
          <Space size={4}>
            <Tag color={STATUS_COLORS[r.status]} data-testid={`sub-status-${r.id}`} data-color={STATUS_COLORS[r.status]}>
              {t(`status.${r.status}`)}
            </Tag>
            {r.advance && <Tag color="blue" data-testid={`sub-advance-${r.id}`}>{t('status.advance')}</Tag>}
          </Space>
        ),
    },
    { title: t('columns.start'), key: 'start', render: (_, r) => display(r.start_date) },
    { title: t('columns.expiry'), key: 'expiry', render: (_, r) => <span data-testid={`sub-expiry-${r.id}`}>{display(r.expire_on)}</span> },
  ];
  if (actions) {
    columns.push({ title: t('columns.updated'), key: 'updated', render: (_, r) => display(r.updated_at) });
    columns.push({
      title: t('columns.actions'),
      key: 'actions',
      // In view at the table's right edge however far its other columns scroll (the customer-details modal is 800 px).
      fixed: 'right',
      render: (_, r) => {
        const items = [
          { key: 'change', label: t('actions.change'), disabled: !canChange },
          ...(r.child == null ? [{ key: 'auto', label: t('actions.auto'), disabled: !canChange }] : []),
          ...(r.hour < r.consumed_hour ? [{ key: 'activate', label: t('actions.activate'), disabled: !canChange }] : []),
          { key: 'delete', label: t('actions.delete'), danger: true, disabled: !canChange },
        ].map((i) => ({ ...i, label: <span data-testid={`sub-action-${i.key}-${r.id}`}>{i.label}</span> }));
        return (
          <Space>
            <Dropdown
              trigger={['click']}
              menu={{
                items,
                onClick: ({ key }) => {
                  if (key === 'change') setEditing(r);
                  if (key === 'auto') setAutoRow(r);
                  if (key === 'activate') setConfirm({ kind: 'activate', row: r });
                  if (key === 'delete') setConfirm({ kind: 'delete', row: r });
                },
              }}
            >
              <Button size="small" icon={<MoreOutlined />} data-testid={`sub-options-${r.id}`}>
                {t('actions.options')}
              </Button>
            </Dropdown>
            <Button size="small" icon={<DownloadOutlined />} data-testid={`sub-csv-${r.id}`} onClick={() => setReportRow(r)} aria-label={t('actions.csv')} />
          </Space>
        );
      },
    });
  }

  const done = (text: string) => {
    void message.success(text);
    onChanged?.();
  };

  return (
    <div data-testid="subscriptions-table">
      <Table<PurchasedService>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows}
        loading={loading}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: <span data-testid="subscriptions-empty">{t('empty')}</span> }}
        onRow={(r) => ({ 'data-testid': `sub-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
      />
      <Suspense fallback={null}>
        {editing && <ChangeServiceModal row={editing} onClose={() => setEditing(null)} onDone={() => done(t('messages.updated'))} />}
        {autoRow && <AutoUpdateModal row={autoRow} onClose={() => setAutoRow(null)} onDone={() => done(t('messages.dateChanged'))} />}
        {reportRow && <TimeReportModal row={reportRow} onClose={() => setReportRow(null)} />}
      </Suspense>
      {confirm && (
        <Modal
          open
          title={t(confirm.kind === 'delete' ? 'confirm.deleteTitle' : 'confirm.activateTitle')}
          okText={t('confirm.yes')}
          cancelText={t('confirm.no')}
          okButtonProps={{ 'data-testid': 'sub-confirm-yes' }}
          cancelButtonProps={{ 'data-testid': 'sub-confirm-no' }}
          onCancel={() => setConfirm(null)}
          onOk={async () => {
            const { kind, row } = confirm;
            setConfirm(null);
            try {
              if (kind === 'delete') {
                await deleteService(row.id);
                done(t('messages.deleted'));
              } else {
                await activateService(row.id);
                done(t('messages.activated'));
              }
            } catch {
              void message.error(t(kind === 'delete' ? 'messages.deleteFailed' : 'messages.activateFailed'));
            }
          }}
        >
          <span data-testid="sub-confirm-text">{t(confirm.kind === 'delete' ? 'confirm.delete' : 'confirm.activate')}</span>
        </Modal>
      )}
    </div>
  );
}

