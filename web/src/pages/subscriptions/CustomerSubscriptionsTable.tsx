/**
 * The customer subscriptions table (spec §2 shared UI pieces) with its row
 * actions: change service, automatic update date, activate, delete (with the
 * spec's confirmations and messages) and the CSV time report.
 */
import { DownloadOutlined, MoreOutlined } from '@ant-design/icons';
import { serviceName } from '../../components/names';
import { App, Button, DatePicker, Dropdown, Form, Input, Modal, Progress, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activateService, changeService, deleteService, setAutoUpdateDate, timeReport } from '../../api/subscriptions';
import type { PurchasedService } from '../../types/subscriptions';
import { DATE_FORMAT, DATETIME_FORMAT, DISPLAY_DATETIME_FORMAT, HOURS_MIN } from '../../config/constants';
import { useSession } from '../../store/session';
import {
  changesRows,
  consumedText,
  CONSULTANCY_SERVICE_ID,
  formatHours,
  isExternalLawyer,
  limitText,
  parseHours,
  remaining,
  rowName,
  showsRowActions,
  startsLater,
  STATUS_COLORS,
} from './format';
import { saveFile } from '../../download';

const NS = 'subscriptions';

function display(v: string | null | undefined): string {
  return v ? dayjs(v).format(DISPLAY_DATETIME_FORMAT) : '-';
}

const tomorrow = () => dayjs().add(1, 'day').startOf('day');

export interface CustomerSubscriptionsTableProps {
  rows: PurchasedService[];
  loading?: boolean;
  /** Called after a row changed (the caller reloads `customer/{uid}/`). */
  onChanged?: () => void;
}

export default function CustomerSubscriptionsTable({ rows, loading, onChanged }: CustomerSubscriptionsTableProps) {
  const { t } = useTranslation(NS);
  const { message } = App.useApp();
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
      // What is left: limit − consumed, with a bar of what is used (issue 14).
      title: t('columns.left'),
      key: 'left',
      render: (_, r) => {
        const left = remaining(r);
        if (!left) return '-';
        const hours = r.service.id === CONSULTANCY_SERVICE_ID;
        return (
          <div style={{ minWidth: 120 }} data-testid={`sub-left-${r.id}`}>
            <span className="nowrap">{hours ? t('left.hours', { hours: formatHours(left.left) }) : t('left.uses', { count: left.left })}</span>
            <Progress
              percent={left.percentUsed}
              size="small"
              status="normal"
              showInfo={false}
              strokeColor={left.percentUsed >= 90 ? '#cf1322' : left.percentUsed >= 70 ? '#d46b08' : '#389e0d'}
              aria-label={t('left.used', { percent: left.percentUsed })}
            />
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
              {t('status.startsLater', { date: dayjs(r.start_date).format(DATE_FORMAT) })}
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
      {editing && <ChangeServiceModal row={editing} onClose={() => setEditing(null)} onDone={() => done(t('messages.updated'))} />}
      {autoRow && <AutoUpdateModal row={autoRow} onClose={() => setAutoRow(null)} onDone={() => done(t('messages.dateChanged'))} />}
      {reportRow && <TimeReportModal row={reportRow} onClose={() => setReportRow(null)} />}
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

interface ChangeValues {
  start_date: Dayjs | null;
  expire_on: Dayjs | null;
  hour: string;
}

/** Spec §5 change service form. */
export function ChangeServiceModal({ row, onClose, onDone }: { row: PurchasedService; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation(NS);
  const [form] = Form.useForm<ChangeValues>();
  const [saving, setSaving] = useState(false);
  const hourBased = row.service.id === CONSULTANCY_SERVICE_ID;
  const submit = async (v: ChangeValues) => {
    setSaving(true);
    try {
      await changeService(row.id, {
        start_date: v.start_date!.format(DATETIME_FORMAT),
        expire_on: v.expire_on!.format(DATETIME_FORMAT),
        ...(hourBased ? { hour: v.hour.trim() } : {}),
      });
      onClose();
      onDone();
    } catch {
      /* the client showed the error */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={t('change.title')} onCancel={onClose} footer={null} destroyOnHidden>
      <Form<ChangeValues>
        form={form}
        layout="vertical"
        data-testid="change-service-form"
        initialValues={{ start_date: row.start_date ? dayjs(row.start_date) : tomorrow(), expire_on: tomorrow(), hour: '0' }}
        onFinish={submit}
      >
        <Form.Item name="start_date" label={t('change.start')} rules={[{ required: true, message: t('change.startRequired') }]}>
          <DatePicker showTime format={DATETIME_FORMAT} data-testid="change-start" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expire_on" label={t('change.expire')} rules={[{ required: true, message: t('change.expireRequired') }]}>
          <DatePicker showTime format={DATETIME_FORMAT} data-testid="change-expire" style={{ width: '100%' }} />
        </Form.Item>
        {hourBased && (
          <Form.Item
            name="hour"
            label={t('change.hours')}
            rules={[
              { required: true, message: t('change.hoursRequired') },
              {
                validator: async (_, value: string) => {
                  if (!value?.trim()) return;
                  const n = parseHours(value);
                  if (n == null || n < HOURS_MIN) throw new Error(t('change.hoursMin', { min: formatHours(HOURS_MIN) }));
                },
              },
            ]}
          >
            <Input inputMode="decimal" data-testid="change-hours" />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" loading={saving} data-testid="change-submit">
          {t('change.save')}
        </Button>
      </Form>
    </Modal>
  );
}

/** Change automatic update date, with a clear button (sends null). */
export function AutoUpdateModal({ row, onClose, onDone }: { row: PurchasedService; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation(NS);
  const [value, setValue] = useState<Dayjs | null>(row.auto_update_date_end ? dayjs(row.auto_update_date_end) : null);
  const save = async (date: Dayjs | null) => {
    try {
      await setAutoUpdateDate(row.id, date ? date.format(DATE_FORMAT) : null);
      onClose();
      onDone();
    } catch {
      /* notified by the client */
    }
  };
  return (
    <Modal
      open
      title={t('auto.title')}
      onCancel={onClose}
      footer={[
        <Button key="clear" data-testid="auto-clear" onClick={() => void save(null)}>
          {t('auto.clear')}
        </Button>,
        <Button key="save" type="primary" data-testid="auto-save" onClick={() => void save(value)}>
          {t('auto.save')}
        </Button>,
      ]}
    >
      <DatePicker value={value} onChange={setValue} format={DATE_FORMAT} data-testid="auto-date" style={{ width: '100%' }} />
    </Modal>
  );
}

/** CSV time report for a date range, saved under the plan or service name. */
export function TimeReportModal({ row, onClose }: { row: PurchasedService; onClose: () => void }) {
  const { t } = useTranslation(NS);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>([dayjs(row.start_date), dayjs()]);
  const download = async () => {
    if (!range?.[0] || !range[1]) return;
    try {
      const text = await timeReport(row.id, range[0].format(DATE_FORMAT), range[1].format(DATE_FORMAT));
      saveFile(new Blob([typeof text === 'string' ? text : JSON.stringify(text)], { type: 'text/csv;charset=utf-8' }), `${rowName(row)}.csv`);
      onClose();
    } catch {
      /* notified by the client */
    }
  };
  return (
    <Modal open title={t('report.title')} onCancel={onClose} onOk={() => void download()} okText={t('report.download')} okButtonProps={{ 'data-testid': 'report-download' }}>
      <DatePicker.RangePicker value={range} onChange={(v) => setRange(v as [Dayjs | null, Dayjs | null] | null)} format={DATE_FORMAT} />
    </Modal>
  );
}
