import { Alert, Button, Checkbox, DatePicker, Form, Input, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from '../../i18n/dates';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { editAdditionalHour, getAdditionalHour } from '../../api/caseHours';
import { hoursInput } from './status';
import TotalHourItem from './TotalHourItem';
import { EntryUpdateFrame, useEntryUpdate } from './EntryUpdate';
import { LONG_TEXT_MAX_CHARS } from '../../validation/bounds';

interface Values {
  month: Dayjs;
  total_hour: string;
  is_invoiced?: boolean;
  description?: string;
}

/** cases/additional_hour/update/{id}?case=<case uid>: one additional-hour entry's form. */
export default function AdditionalHourUpdate({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('caseHours');
  const [form] = Form.useForm<Values>();
  const page = useEntryUpdate(getAdditionalHour);
  const { caseUid, entry, errors, busy, editable } = page;

  useEffect(() => {
    if (!entry) return;
    form.setFieldsValue({
      month: dayjs(`${entry.month}-01`),
      total_hour: hoursInput(entry.total_hour),
      is_invoiced: entry.is_invoiced,
      description: entry.description,
    });
  }, [entry, form]);

  const save = (v: Values) =>
    entry &&
    page.save(form, ['month', 'total_hour', 'description'], () =>
      editAdditionalHour(entry.id, {
        case_uid: caseUid,
        month: v.month.format('YYYY-MM'),
        total_hour: v.total_hour,
        is_invoiced: !!v.is_invoiced,
        description: v.description ?? '',
      }),
    );

  return (
    <EntryUpdateFrame titleKey={titleKey} testPrefix="additional-update" state={page}>
          <Form<Values> form={form} layout="vertical" onFinish={save} disabled={!editable} data-testid="additional-update-form">
            <Space wrap size="middle">
              <Form.Item name="month" label={t('fields.month')} rules={[{ required: true, message: t('validation.required') }]}>
                <DatePicker picker="month" format="YYYY-MM" allowClear={false} />
              </Form.Item>
              <TotalHourItem width={120} testId="additional-update-total" />
            </Space>
            <Form.Item name="description" label={t('fields.description')}>
              <Input.TextArea rows={3} maxLength={LONG_TEXT_MAX_CHARS} data-testid="additional-update-description" />
            </Form.Item>
            <Form.Item name="is_invoiced" valuePropName="checked">
              <Checkbox>{t('fields.is_invoiced')}</Checkbox>
            </Form.Item>
            {errors.length > 0 && <Alert type="error" style={{ marginBottom: 16 }} title={errors.join(' ')} data-testid="additional-update-errors" />}
            <Button type="primary" htmlType="submit" loading={busy} data-testid="additional-update-submit">
              {t('update.save')}
            </Button>
          </Form>
    </EntryUpdateFrame>
  );
}
