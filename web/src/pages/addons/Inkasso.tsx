/**
 * Debt collection (spec §2 Inkasso, §3 Inkasso account): the account
 * application with its fields validated, and its state. The application is
 * handed over to the office, which registers the company with the
 * collection agency and records its answer ('come back after 30 minutes';
 * reading it again shows the answer). Once approved, claims are registered
 * (InkassoClaims).
 */
import './texts';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { Button, Card, Form, Input, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import Loading from '../../components/Loading';
import MessageAlert from '../../components/MessageAlert';
import { splitServerErrors } from '../../api/formErrors';
import { applyInkasso, inkassoProspect, type InkassoAccount, type InkassoProspect } from '../../api/addons';
import InkassoClaims from './InkassoClaims';
import PageTitle from '../../components/PageTitle';

const FIELDS: Array<{ name: keyof InkassoAccount; required?: boolean }> = [
  { name: 'organization_number', required: true },
  { name: 'contact_name', required: true },
  { name: 'home_page' },
  { name: 'bank_name', required: true },
  { name: 'bank_account', required: true },
  { name: 'plus_giro' },
  { name: 'bank_giro' },
  { name: 'iban' },
  { name: 'bic' },
  { name: 'approved_ip', required: true },
];

export default function Inkasso({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('addons');
  const [form] = Form.useForm<InkassoAccount>();
  // `prospect` undefined until the first answer, null when there is none (or the first read failed). Each
  // answer puts the account into the form.
  const read = useLoad(
    () =>
      inkassoProspect().then((p) => {
        if (p) form.setFieldsValue(p.account);
        return { p };
      }),
    '',
    { p: null },
  );
  const prospect = read.data ? read.data.p : undefined;
  const setProspect = (p: InkassoProspect | null) => read.set({ p });
  const load = () => void read.reload();
  const checking = read.loading;
  const [other, setOther] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  const submit = async (v: InkassoAccount) => {
    setSaving(true);
    setOther([]);
    try {
      setProspect(await applyInkasso({ ...Object.fromEntries(FIELDS.map((f) => [f.name, ''])), ...v } as InkassoAccount));
    } catch (err) {
      const split = splitServerErrors(err, FIELDS.map((f) => f.name));
      form.setFields(split.fields as never);
      setOther(split.other);
    } finally {
      setSaving(false);
    }
  };

  if (prospect === undefined) return <Loading />;
  return (
    <div className="page" data-testid="inkasso-page">
      <PageTitle titleKey={titleKey} />
      <Card
        title={t('inkasso.account')}
        extra={prospect && <Tag color={prospect.state === 'approved' ? 'success' : prospect.state === 'rejected' ? 'error' : 'processing'} data-testid="inkasso-state">{t(`inkasso.state.${prospect.state}`)}</Tag>}
        style={{ maxWidth: 720 }}
      >
        <Typography.Paragraph type="secondary" data-testid="inkasso-text">
          {prospect?.state === 'approved'
            ? t('inkasso.approvedText')
            : prospect?.state === 'rejected'
              ? t('inkasso.rejectedText')
              : prospect?.state === 'applied'
                ? t(prospect.handed_over_at ? 'inkasso.handedOverText' : 'inkasso.notHandedOverText')
                : t('inkasso.intro')}
        </Typography.Paragraph>
        {prospect?.state === 'approved' && prospect.creditor_id && (
          <Typography.Paragraph>
            {t('inkasso.creditorId')}: <Typography.Text code copyable data-testid="inkasso-hash">{prospect.creditor_id}</Typography.Text>
          </Typography.Paragraph>
        )}
        {prospect?.state === 'applied' && (
          <Button onClick={load} loading={checking} style={{ marginBottom: 16 }} data-testid="inkasso-refresh">
            {t('inkasso.refresh')}
          </Button>
        )}
        <MessageAlert messages={other.length ? [other.join(' ')] : null} />
        <Form<InkassoAccount> form={form} layout="vertical" onFinish={submit} disabled={prospect?.state === 'approved'}>
          {FIELDS.map((f) => (
            <Form.Item key={f.name} name={f.name} label={t(`inkasso.${f.name}`)} rules={f.required ? [{ required: true, message: t('required') }] : []}>
              <Input data-testid={`inkasso-${f.name}`} maxLength={200} />
            </Form.Item>
          ))}
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="inkasso-submit">
              {t('inkasso.apply')}
            </Button>
          </Space>
        </Form>
      </Card>
      {prospect?.state === 'approved' && <InkassoClaims />}
    </div>
  );
}
