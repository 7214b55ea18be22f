/**
 * Credit check (spec §2): look up a company by organisationsnummer or a
 * person by personnummer; the reports are kept and listed, a pending one
 * ('come back after 30 minutes') shows its report once the provider has it.
 * A person's lookup records its legitimate need and where the person's copy
 * goes (kreditupplysningslagen): an e-mail address, or a postal address
 * for a letter.
 */
import './texts';
import { useState } from 'react';
import { useList } from '../../api/useList';
import { Alert, Button, Card, Form, Input, Radio, Space, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import Loading from '../../components/Loading';
import { ApiError } from '../../api/errors';
import { translateServerMessage } from '../../i18n';
import { creditLookup, listCreditReports, type CreditLookupForm, type CreditReport } from '../../api/addons';
import { EMAIL_MAX_CHARS } from '../../validation/bounds';
import { emailRule, identityNumberRule } from '../../validation/formRules';
import { formatMoney } from '../../format';
import PageTitle from '../../components/PageTitle';

export default function CreditCheck({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('addons');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<CreditLookupForm>();
  const kind = Form.useWatch('kind', form);
  const { rows, reload: load } = useList<CreditReport>(listCreditReports);

  const lookup = async (v: CreditLookupForm) => {
    setBusy(true);
    setError(null);
    try {
      const person = v.kind === 'person';
      await creditLookup({
        kind: v.kind,
        number: v.number,
        ...(person ? { legitimate_need: v.legitimate_need, copy_email: v.copy_email || undefined, copy_address: v.copy_address || undefined } : {}),
      });
      form.resetFields(['number', 'legitimate_need', 'copy_email', 'copy_address']);
      await load();
    } catch (err) {
      const key = err instanceof ApiError ? (Object.values(err.fieldErrors).flat()[0] ?? err.body?.message) : undefined;
      setError(key ? translateServerMessage(key) : t('credit.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page" data-testid="credit-check-page">
      <PageTitle titleKey={titleKey} />
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Card title={t('credit.lookup')}>
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="credit-error" />}
          <Form form={form} layout="inline" initialValues={{ kind: 'company' }} onFinish={lookup}>
            <Form.Item name="kind">
              <Radio.Group
                options={[
                  { value: 'company', label: t('credit.company') },
                  { value: 'person', label: <span data-testid="credit-kind-person">{t('credit.person')}</span> },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="number"
              rules={[
                { required: true, message: t('required') },
                identityNumberRule(t('credit.invalidNumber')),
              ]}
            >
              <Input placeholder="XXXXXX-XXXX" data-testid="credit-number" aria-label={t('credit.number')} />
            </Form.Item>
            {kind === 'person' && (
              <div style={{ flexBasis: '100%', marginTop: 12 }} data-testid="credit-person-fields">
                <Typography.Paragraph type="secondary">{t('credit.needHelp')}</Typography.Paragraph>
                <Form.Item
                  name="legitimate_need"
                  label={t('credit.need')}
                  rules={[{ required: true, whitespace: true, message: t('required') }]}
                  style={{ marginBottom: 12 }}
                >
                  <Input maxLength={500} showCount data-testid="credit-need" />
                </Form.Item>
                <Typography.Paragraph type="secondary">{t('credit.copyHelp')}</Typography.Paragraph>
                <Form.Item name="copy_email" label={t('credit.copyEmail')} rules={[emailRule(translateServerMessage('invalid_email'))]} style={{ marginBottom: 12 }}>
                  <Input type="email" maxLength={EMAIL_MAX_CHARS} data-testid="credit-copy-email" />
                </Form.Item>
                <Form.Item
                  name="copy_address"
                  label={t('credit.copyAddress')}
                  dependencies={['copy_email']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_, value?: string) =>
                        (getFieldValue('copy_email') ?? '').trim() || (value ?? '').trim() ? Promise.resolve() : Promise.reject(new Error(t('required'))),
                    }),
                  ]}
                  style={{ marginBottom: 12 }}
                >
                  <Input.TextArea maxLength={300} autoSize={{ minRows: 2 }} data-testid="credit-copy-address" />
                </Form.Item>
              </div>
            )}
            <Button type="primary" htmlType="submit" loading={busy} data-testid="credit-submit">
              {t('credit.submit')}
            </Button>
          </Form>
        </Card>
        {!rows ? (
          <Loading />
        ) : (
          <Table<CreditReport>
            rowKey="uid"
            dataSource={rows}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('credit.empty') }}
            data-testid="credit-reports"
            columns={[
              { title: t('credit.number'), dataIndex: 'number' },
              { title: t('credit.name'), dataIndex: 'name', render: (n?: string | null) => n ?? '–' },
              {
                title: t('credit.status'),
                dataIndex: 'status',
                render: (s: string) => <Tag color={s === 'ready' ? 'success' : 'processing'}>{s === 'ready' ? t('credit.ready') : t('credit.pending')}</Tag>,
              },
              { title: t('credit.rating'), dataIndex: 'rating', render: (r?: string | null) => r ?? '–' },
              { title: t('credit.remarks'), dataIndex: 'payment_remarks', render: (r?: number | null) => r ?? '–' },
              { title: t('credit.turnover'), dataIndex: 'turnover', render: (v?: number | null) => formatMoney(v) },
              {
                title: t('credit.copy'),
                key: 'copy',
                render: (_: unknown, r: CreditReport) => {
                  const c = r.subject_copy;
                  if (!c) return '–';
                  const text = c.channel === 'letter' ? t('credit.copyLetter', { to: c.to }) : c.sent_at ? t('credit.copySent', { to: c.to }) : t('credit.copyUnsent', { to: c.to });
                  return (
                    <span data-testid={`credit-copy-${r.uid}`} title={r.legitimate_need ?? undefined}>
                      {text}
                    </span>
                  );
                },
              },
              { title: t('list.created'), dataIndex: 'created_at', render: (d: string) => d.slice(0, 10) },
            ]}
          />
        )}
      </Space>
    </div>
  );
}
