import { Alert, Button, Card, Checkbox, DatePicker, Form, Input, Popconfirm, Space } from 'antd';
import Table from '../../components/ResponsiveTable';
import type { Dayjs } from 'dayjs';
import '../../i18n/dates';
import { useState } from 'react';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import { additionalHours, createAdditionalHour, deleteAdditionalHour, massUpdateAdditionalHours } from '../../api/caseHours';
import type { AdditionalHour } from '../../types/caseHours';
import type { CaseDetails } from '../../types/cases';
import { applyServerErrors } from '../../api/formErrors';
import { hasRoute, pathFor, useAreaRole } from '../../routes/pathFor';
import { useSession } from '../../store/session';
import HourBulkActions from './HourBulkActions';
import TotalHourItem from './TotalHourItem';
import { formatHours } from './status';
import { LONG_TEXT_MAX_CHARS } from '../../validation/bounds';
import { useFeedback } from '../../layout/feedback';

interface Values {
  month: Dayjs;
  total_hour: string;
  description?: string;
  is_invoiced?: boolean;
}

/**
 * The "Additional hours" card of the case details (spec §3: month, total
 * hour). Admin and the assigned lawyer add, edit, delete and mark invoiced
 * while the case is active; whoever else may view the case reads.
 */
export default function AdditionalHours({ c }: { c: CaseDetails }) {
  const { t, i18n } = useTranslation('caseHours');
  const user = useSession((s) => s.user);
  const role = useAreaRole();
  const { message } = useFeedback();
  // null while the first answer is on its way: the table shows its spinner, not "no entries".
  // A failed load is notified by the client; the table then shows its empty text.
  const { rows: loaded, reload: load } = useList<AdditionalHour>(() => additionalHours(c.uid), c.uid);
  const rows = loaded ?? [];
  const [selected, setSelected] = useState<string[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [form] = Form.useForm<Values>();
  // Only admin and lawyers have the hour screens (spec §2).
  const canChange = c.can_enter_hours && hasRoute(role, 'additionalHourUpdate');
  // Admin invoices at any time, closed cases included (the server's rule).
  const canInvoice = canChange || (!!user?.is_staff && rows.length > 0);


  const add = async (v: Values) => {
    setErrors([]);
    try {
      await createAdditionalHour({
        case_uid: c.uid,
        month: v.month.format('YYYY-MM'),
        total_hour: v.total_hour,
        description: v.description ?? '',
        is_invoiced: !!v.is_invoiced,
        // Admin reports for the assigned lawyer (spec §6).
        lawyer: user?.is_staff ? (c.lawyer ?? undefined) : undefined,
      });
      form.resetFields();
      void message.success(t('additional.added'));
      await load();
    } catch (err) {
      setErrors(applyServerErrors(form, err, ['month', 'total_hour', 'description']));
    }
  };

  const remove = async (a: AdditionalHour) => {
    try {
      await deleteAdditionalHour(c.uid, a.id);
      await load();
    } catch {
      /* notified by the client */
    }
  };

  const total = rows.reduce((s, a) => s + a.total_hour, 0);
  return (
    <Card
      title={t('additional.title')}
      style={{ marginTop: 16 }}
      data-testid="additional-hours-card"
      extra={<span data-testid="additional-hours-total">{t('additional.total', { hours: formatHours(total, i18n.language) })}</span>}
    >
      {canInvoice && (
        <HourBulkActions
          caseUid={c.uid}
          selected={selected}
          send={massUpdateAdditionalHours}
          testPrefix="additional"
          onDone={() => {
            setSelected([]);
            void load().catch(() => undefined);
          }}
        />
      )}
      <Table<AdditionalHour>
        rowKey="id"
        data-testid="additional-hours-table"
        dataSource={rows}
        loading={loaded === null}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('table.empty') }}
        rowSelection={canInvoice ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) } : undefined}
        columns={[
          { title: t('fields.month'), dataIndex: 'month', key: 'month' },
          { title: t('fields.lawyer'), dataIndex: 'lawyer_name', key: 'lawyer' },
          { title: t('fields.total_hour'), key: 'total', render: (_, a) => formatHours(a.total_hour, i18n.language) },
          { title: t('fields.is_invoiced'), key: 'inv', render: (_, a) => (a.is_invoiced ? t('table.yes') : t('table.no')) },
          { title: t('fields.description'), dataIndex: 'description', key: 'description' },
          ...(canChange
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, a: AdditionalHour) => (
                    <Space>
                      <Link to={pathFor(role, 'additionalHourUpdate', { id: a.id }, { case: c.uid })} data-testid={`additional-edit-${a.month}`}>
                        <Button size="small">{t('table.edit')}</Button>
                      </Link>
                      <Popconfirm title={t('additional.confirmDelete')} okText={t('table.yes')} cancelText={t('table.no')} onConfirm={() => remove(a)}>
                        <Button size="small" danger data-testid={`additional-delete-${a.month}`}>
                          {t('update.delete')}
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {canChange && (
        <Form<Values> form={form} name="additional_hours" layout="inline" onFinish={add} style={{ marginTop: 16, rowGap: 8 }} data-testid="additional-form">
          <Form.Item name="month" label={t('fields.month')} rules={[{ required: true, message: t('validation.required') }]}>
            <DatePicker picker="month" format="YYYY-MM" data-testid="additional-month" />
          </Form.Item>
          <TotalHourItem width={90} testId="additional-total" />
          <Form.Item name="description" label={t('fields.description')}>
            <Input style={{ width: 200 }} maxLength={LONG_TEXT_MAX_CHARS} data-testid="additional-description" />
          </Form.Item>
          <Form.Item name="is_invoiced" valuePropName="checked">
            <Checkbox>{t('fields.is_invoiced')}</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="additional-submit">
            {t('additional.add')}
          </Button>
        </Form>
      )}
      {errors.length > 0 && <Alert type="error" style={{ marginTop: 8 }} title={errors.join(' ')} data-testid="additional-errors" />}
    </Card>
  );
}
