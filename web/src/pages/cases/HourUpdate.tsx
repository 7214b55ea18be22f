import { Alert, App, Button, Card, Checkbox, DatePicker, Form, Input, Popconfirm, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { editHour, getHour } from '../../api/caseHours';
import { deleteHour, getCase, type CaseDetails, type CaseHour } from '../../api/cases';
import { applyServerErrors } from '../../api/formErrors';
import { useSession } from '../../store/session';
import { hoursInput } from './hourPaths';
import { casePaths } from './paths';
import { parseHours } from './status';

interface Values {
  hour?: string;
  non_billable_hour?: string;
  rattsskydd_hour?: string;
  date: Dayjs;
  time?: string;
  is_invoiced?: boolean;
  description?: string;
}

const FIELDS = ['hour', 'non_billable_hour', 'rattsskydd_hour', 'date', 'time', 'description'];

/** cases/case-hour/update/{id}?case=<case uid>: one hour entry's form, saved through case/hour/edit/{id}/. */
export default function HourUpdate({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('caseHours');
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const caseUid = params.get('case') ?? '';
  const paths = casePaths(useSession((s) => s.user));
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [entry, setEntry] = useState<CaseHour | null>(null);
  const [theCase, setCase] = useState<CaseDetails | null>(null);
  const [failed, setFailed] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!caseUid) return;
    Promise.all([getHour(caseUid, id), getCase(caseUid)])
      .then(([h, c]) => {
        setEntry(h);
        setCase(c);
      })
      .catch(() => setFailed(true));
  }, [caseUid, id]);

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

  const back = paths.details(caseUid);
  const hoursRule = {
    validator: (_: unknown, v: string | undefined) =>
      !v || parseHours(v) !== null ? Promise.resolve() : Promise.reject(new Error(t('validation.invalid'))),
  };
  // Spec §5/§9: at least 0,01 hours in all (billable, non-billable or rättsskydd).
  const minRule = ({ getFieldsValue }: { getFieldsValue: (names: string[]) => Values }) => ({
    validator: () => {
      const v = getFieldsValue(['hour', 'non_billable_hour', 'rattsskydd_hour']);
      const sum = [v.hour, v.non_billable_hour, v.rattsskydd_hour].reduce((a, x) => a + (parseHours(x || '0') ?? 0), 0);
      return sum >= 0.01 ? Promise.resolve() : Promise.reject(new Error(t('validation.min')));
    },
  });

  const save = async (v: Values) => {
    if (!entry) return;
    setErrors([]);
    setBusy(true);
    try {
      await editHour(entry.id, {
        case_uid: caseUid,
        hour: v.hour || '0',
        non_billable_hour: v.non_billable_hour || '0',
        rattsskydd_hour: v.rattsskydd_hour || '0',
        date: v.date.format('YYYY-MM-DD'),
        time: v.time ?? '',
        is_invoiced: !!v.is_invoiced,
        description: v.description ?? '',
      });
      void message.success(t('update.saved'));
      void navigate(back);
    } catch (err) {
      setErrors(applyServerErrors(form, err, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!entry) return;
    try {
      await deleteHour(caseUid, entry.id);
      void message.success(t('update.deleted'));
      void navigate(back);
    } catch {
      /* notified by the client */
    }
  };

  const editable = !!theCase?.can_enter_hours;
  return (
    <div className="page" data-testid="hour-update-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <Link to={back} data-testid="hour-update-back">
        {t('update.back')}
      </Link>
      {!caseUid && <Alert type="warning" style={{ marginTop: 16 }} title={t('update.missingCase')} data-testid="hour-update-missing-case" />}
      {caseUid && !entry && !failed && <Card loading style={{ marginTop: 16 }} />}
      {entry && (
        <Card style={{ marginTop: 16, maxWidth: 640 }}>
          {!editable && <Alert type="info" style={{ marginBottom: 16 }} title={t('update.readOnly')} data-testid="hour-update-readonly" />}
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
              <Input.TextArea rows={3} maxLength={2000} data-testid="hour-update-description" />
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
        </Card>
      )}
    </div>
  );
}
