/**
 * The subscriptions table's dialogs (change a service, its automatic update date, a CSV time report):
 * loaded when one is opened (CustomerSubscriptionsTable.tsx), as their DatePicker and Form are not needed
 * to show the table on the customer's dashboard (its budget).
 */
import { Button, DatePicker, Form, Input, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from '../../i18n/dates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeService, setAutoUpdateDate, timeReport } from '../../api/subscriptions';
import type { PurchasedService } from '../../types/subscriptions';
import { DATE_FORMAT, DATETIME_FORMAT } from '../../config/constants';
import { HOURS_MIN } from '../../validation/bounds';
import { CONSULTANCY_SERVICE_ID, formatHours, parseHours, rowName } from './format';
import { saveFile } from '../../download';

const NS = 'subscriptions';

const tomorrow = () => dayjs().add(1, 'day').startOf('day');

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
        // The row's own values: saving without retyping changes nothing.
        initialValues={{
          start_date: row.start_date ? dayjs(row.start_date) : tomorrow(),
          expire_on: row.expire_on ? dayjs(row.expire_on) : tomorrow(),
          hour: formatHours(row.hour ?? 0),
        }}
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

/** The report's range until the reader picks one: this month, first to last day (not today to today). */
export function defaultReportRange(today: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [today.startOf('month'), today.endOf('month')];
}

/** CSV time report for a date range, saved under the plan or service name. */
export function TimeReportModal({ row, onClose }: { row: PurchasedService; onClose: () => void }) {
  const { t, i18n } = useTranslation(NS);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(defaultReportRange);
  const download = async () => {
    if (!range?.[0] || !range[1]) return;
    try {
      const text = await timeReport(row.id, range[0].format(DATE_FORMAT), range[1].format(DATE_FORMAT), i18n.language);
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
