import { Alert, Button, Checkbox, DatePicker, Form, Input, Popconfirm, Space } from 'antd';
import dayjs from '../../i18n/dates';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { editHour, getHour } from '../../api/caseHours';
import { deleteHour } from '../../api/cases';
import { EntryUpdateFrame, useEntryUpdate } from './EntryUpdate';
import { hoursInput, parseHours } from './status';
import { hourPayload, type HourValues as Values } from './hourEntry';
import { HOURS_MIN, LONG_TEXT_MAX_CHARS } from '../../validation/bounds';

const FIELDS = ['hour', 'non_billable_hour', 'rattsskydd_hour', 'date', 'time', 'description'];

/** cases/case-hour/update/{id}?case=<case uid>: one hour entry's form, saved through case/hour/edit/{id}/. */
export default function HourUpdate({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('caseHours');
  const [form] = Form.useForm<Values>();
  const page = useEntryUpdate(getHour);
  const { caseUid, entry, errors, busy, editable } = page;

  useEffect(() => {
    if (!entry) return;
    form.setFieldsValue({
      hour: hoursInput(entry.hour),
      non_billable_hour: hoursInput(entry.non_billable_hour),
      rattsskydd_hour: hoursInput(entry.rattsskydd_hour),
      date: dayjs(entry.date),
      time: entry.time,
      is_invoiced: entry.is_invoiced,
      description: entry.description,
    });
  }, [entry, form]);

  const hoursRule = {
    validator: (_: unknown, v: string | undefined) =>
      !v || parseHours(v) !== null ? Promise.resolve() : Promise.reject(new Error(t('validation.invalid'))),
  };
  // Spec §5/§9: at least 0,01 hours in all (billable, non-billable or rättsskydd).
  const minRule = ({ getFieldsValue }: { getFieldsValue: (names: string[]) => Values }) => ({
    validator: () => {
      const v = getFieldsValue(['hour', 'non_billable_hour', 'rattsskydd_hour']);
      const sum = [v.hour, v.non_billable_hour, v.rattsskydd_hour].reduce((a, x) => a + (parseHours(x || '0') ?? 0), 0);
      return sum >= HOURS_MIN ? Promise.resolve() : Promise.reject(new Error(t('validation.min')));
    },
  });

  const save = (v: Values) =>
    entry &&
    page.save(form, FIELDS, () =>
      editHour(entry.id, hourPayload(caseUid, v)),
    );
  const remove = () => entry && page.remove(() => deleteHour(caseUid, entry.id));

  return (
    <EntryUpdateFrame titleKey={titleKey} testPrefix="hour-update" state={page}>
          <Form<Values> form={form} layout="vertical" onFinish={save} disabled={!editable} data-testid="hour-update-form">
            <Space wrap size="middle">
              <Form.Item name="hour" label={t('fields.hour')} dependencies={['non_billable_hour', 'rattsskydd_hour']} rules={[hoursRule, minRule]}>
                <Input inputMode="decimal" placeholder="1,5" style={{ width: 120 }} data-testid="hour-update-hour" />
              </Form.Item>
              <Form.Item name="non_billable_hour" label={t('fields.non_billable_hour')} rules={[hoursRule]}>
                <Input inputMode="decimal" style={{ width: 120 }} data-testid="hour-update-non-billable" />
              </Form.Item>
              <Form.Item name="rattsskydd_hour" label={t('fields.rattsskydd_hour')} rules={[hoursRule]}>
                <Input inputMode="decimal" style={{ width: 120 }} data-testid="hour-update-rattsskydd" />
              </Form.Item>
            </Space>
            <Space wrap size="middle">
              <Form.Item name="date" label={t('fields.date')} rules={[{ required: true, message: t('validation.required') }]}>
                <DatePicker format="YYYY-MM-DD" allowClear={false} />
              </Form.Item>
              <Form.Item name="time" label={t('fields.time')} rules={[{ pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: t('validation.time') }]}>
                <Input placeholder="09:30" style={{ width: 100 }} data-testid="hour-update-time" />
              </Form.Item>
            </Space>
            <Form.Item name="description" label={t('fields.description')}>
              <Input.TextArea rows={3} maxLength={LONG_TEXT_MAX_CHARS} data-testid="hour-update-description" />
            </Form.Item>
            <Form.Item name="is_invoiced" valuePropName="checked">
              <Checkbox data-testid="hour-update-invoiced">{t('fields.is_invoiced')}</Checkbox>
            </Form.Item>
            {errors.length > 0 && <Alert type="error" style={{ marginBottom: 16 }} title={errors.join(' ')} data-testid="hour-update-errors" />}
            <Space>
              <Button type="primary" htmlType="submit" loading={busy} data-testid="hour-update-submit">
                {t('update.save')}
              </Button>
              {editable && (
                <Popconfirm title={t('update.confirmDelete')} okText={t('table.yes')} cancelText={t('table.no')} onConfirm={remove}>
                  <Button danger data-testid="hour-update-delete">
                    {t('update.delete')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          </Form>
    </EntryUpdateFrame>
  );
}
