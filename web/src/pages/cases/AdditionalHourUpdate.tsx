import { Alert, App, Button, Card, Checkbox, DatePicker, Form, Input, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { editAdditionalHour, getAdditionalHour, type AdditionalHour } from '../../api/caseHours';
import { getCase, type CaseDetails } from '../../api/cases';
import { applyServerErrors } from '../../api/formErrors';
import { useSession } from '../../store/session';
import { hoursInput } from './hourPaths';
import { casePaths } from './paths';
import { parseHours } from './status';

interface Values {
  month: Dayjs;
  total_hour: string;
  is_invoiced?: boolean;
  description?: string;
}

/** cases/additional_hour/update/{id}?case=<case uid>: one additional-hour entry's form. */
export default function AdditionalHourUpdate({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('caseHours');
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const caseUid = params.get('case') ?? '';
  const paths = casePaths(useSession((s) => s.user));
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [entry, setEntry] = useState<AdditionalHour | null>(null);
  const [theCase, setCase] = useState<CaseDetails | null>(null);
  const [failed, setFailed] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!caseUid) return;
    Promise.all([getAdditionalHour(caseUid, id), getCase(caseUid)])
      .then(([a, c]) => {
        setEntry(a);
        setCase(c);
      })
      .catch(() => setFailed(true));
  }, [caseUid, id]);

  useEffect(() => {
    if (!entry) return;
    form.setFieldsValue({
      month: dayjs(`${entry.month}-01`),
      total_hour: hoursInput(entry.total_hour),
      is_invoiced: entry.is_invoiced,
      description: entry.description,
    });
  }, [entry, form]);

  const back = paths.details(caseUid);
  const save = async (v: Values) => {
    if (!entry) return;
    setErrors([]);
    setBusy(true);
    try {
      await editAdditionalHour(entry.id, {
        case_uid: caseUid,
        month: v.month.format('YYYY-MM'),
        total_hour: v.total_hour,
        is_invoiced: !!v.is_invoiced,
        description: v.description ?? '',
      });
      void message.success(t('update.saved'));
      void navigate(back);
    } catch (err) {
      setErrors(applyServerErrors(form, err, ['month', 'total_hour', 'description']));
    } finally {
      setBusy(false);
    }
  };

  const editable = !!theCase?.can_enter_hours;
  return (
    <div className="page" data-testid="additional-update-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <Link to={back} data-testid="additional-update-back">
        {t('update.back')}
      </Link>
      {!caseUid && <Alert type="warning" style={{ marginTop: 16 }} title={t('update.missingCase')} data-testid="additional-update-missing-case" />}
      {caseUid && !entry && !failed && <Card loading style={{ marginTop: 16 }} />}
      {entry && (
        <Card style={{ marginTop: 16, maxWidth: 640 }}>
          {!editable && <Alert type="info" style={{ marginBottom: 16 }} title={t('update.readOnly')} data-testid="additional-update-readonly" />}
          <Form<Values> form={form} layout="vertical" onFinish={save} disabled={!editable} data-testid="additional-update-form">
            <Space wrap size="middle">
              <Form.Item name="month" label={t('fields.month')} rules={[{ required: true, message: t('validation.required') }]}>
                <DatePicker picker="month" format="YYYY-MM" allowClear={false} />
              </Form.Item>
              <Form.Item
                name="total_hour"
                label={t('fields.total_hour')}
                rules={[
                  { required: true, message: t('validation.required') },
                  {
                    validator: (_, v: string | undefined) => {
                      if (!v) return Promise.resolve();
                      const n = parseHours(v);
                      if (n === null) return Promise.reject(new Error(t('validation.invalid')));
                      return n >= 0.01 ? Promise.resolve() : Promise.reject(new Error(t('validation.min')));
                    },
                  },
                ]}
              >
                <Input inputMode="decimal" placeholder="1,5" style={{ width: 120 }} data-testid="additional-update-total" />
              </Form.Item>
            </Space>
            <Form.Item name="description" label={t('fields.description')}>
              <Input.TextArea rows={3} maxLength={2000} data-testid="additional-update-description" />
            </Form.Item>
            <Form.Item name="is_invoiced" valuePropName="checked">
              <Checkbox>{t('fields.is_invoiced')}</Checkbox>
            </Form.Item>
            {errors.length > 0 && <Alert type="error" style={{ marginBottom: 16 }} title={errors.join(' ')} data-testid="additional-update-errors" />}
            <Button type="primary" htmlType="submit" loading={busy} data-testid="additional-update-submit">
              {t('update.save')}
            </Button>
          </Form>
        </Card>
      )}
    </div>
  );
}
