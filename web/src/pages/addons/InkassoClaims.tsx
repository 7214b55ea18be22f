/**
 * Debt collection claims, shown once the Inkasso account is approved:
 * register a claim (debtor, amount in SEK, invoice number, due date,
 * invoice PDF), handed over to the collection agency through the office,
 * and the list of claims with the status the office records from the agency.
 */
import './texts';
import { useState, type ReactNode } from 'react';
import { useList } from '../../api/useList';
import { Alert, Button, Card, Form, Input, Space, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { splitServerErrors } from '../../api/formErrors';
import { translateServerMessage } from '../../i18n';
import { ApiError } from '../../api/errors';
import { putToPresignedUrl } from '../../api/users';
import type { EnvelopeDocument } from '../../api/addons';
import { newIdempotencyKey } from '../../api/client';
import { emailRule } from '../../validation/formRules';
import { invoiceUploadUrl, listClaims, parseSekToOre, registerClaim, type Claim, type ClaimStatus } from '../../api/inkasso';
import { formatOre } from '../../format';

export const STATUS_COLOUR: Record<ClaimStatus, string> = {
  submitted: 'default',
  registered: 'processing',
  reminder_sent: 'warning',
  collection: 'orange',
  paid: 'success',
  closed: 'default',
};

interface Values {
  debtor_name: string;
  debtor_number: string;
  debtor_address: string;
  debtor_email: string;
  amount: string;
  invoice_number: string;
  due_date: string;
}

const FIELDS = ['debtor_name', 'debtor_number', 'debtor_address', 'debtor_email', 'amount', 'invoice_number', 'due_date', 'invoice'] as const;

function messageOf(err: unknown): string | null {
  return err instanceof ApiError && err.body?.message ? translateServerMessage(err.body.message) : null;
}

export default function InkassoClaims() {
  const { t } = useTranslation('addons');
  const [form] = Form.useForm<Values>();
  const [invoice, setInvoice] = useState<EnvelopeDocument | null>(null);
  const [invoiceError, setInvoiceError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [request, setRequest] = useState(newIdempotencyKey);

  const { rows: claims, reload } = useList(listClaims);
  const load = () => void reload();

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setInvoiceError(null);
    try {
      const target = await invoiceUploadUrl(file.name);
      await putToPresignedUrl(target.url, file, target.content_type);
      setInvoice({ key: target.key, name: target.name });
    } catch (err) {
      setInvoiceError(messageOf(err) ?? t('claims.uploadFailed'));
    } finally {
      setUploading(false);
    }
  };

  const submit = async (v: Values) => {
    if (!invoice) {
      setInvoiceError(t('claims.invoiceRequired'));
      return;
    }
    setSaving(true);
    setAlert([]);
    try {
      await registerClaim({ ...v, amount: parseSekToOre(v.amount) ?? 0, invoice }, request);
      form.resetFields();
      setInvoice(null);
      setRequest(newIdempotencyKey());
      load();
    } catch (err) {
      const split = splitServerErrors(err, FIELDS);
      setInvoiceError(split.fields.find((f) => f.name === 'invoice')?.errors.join(' ') ?? null);
      form.setFields(split.fields.filter((f) => f.name !== 'invoice') as never);
      setAlert(split.other.length ? split.other : split.fields.length ? [] : [messageOf(err) ?? t('claims.saveFailed')]);
    } finally {
      setSaving(false);
    }
  };

  const required = [{ required: true, whitespace: true, message: t('required') }];
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', marginTop: 24 }}>
      <Card title={t('claims.newTitle')} style={{ maxWidth: 720 }} data-testid="claim-form">
        {alert.length > 0 && <Alert type="error" showIcon title={alert.join(' ')} style={{ marginBottom: 16 }} data-testid="claim-error" />}
        <Form<Values> form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="debtor_name" label={t('claims.debtor_name')} rules={required}>
            <Input data-testid="claim-debtor_name" maxLength={200} />
          </Form.Item>
          <Form.Item name="debtor_number" label={t('claims.debtor_number')} rules={required} extra={t('claims.debtorNumberHint')}>
            <Input data-testid="claim-debtor_number" maxLength={13} />
          </Form.Item>
          <Form.Item name="debtor_address" label={t('claims.debtor_address')} rules={required}>
            <Input data-testid="claim-debtor_address" maxLength={200} />
          </Form.Item>
          <Form.Item name="debtor_email" label={t('claims.debtor_email')} rules={[...required, emailRule(t('claims.emailInvalid'))]}>
            <Input data-testid="claim-debtor_email" maxLength={200} type="email" />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('claims.amount')}
            rules={[...required, { validator: (_, v: string) => (!v || (parseSekToOre(v) ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error(t('claims.amountInvalid')))) }]}
          >
            <Input data-testid="claim-amount" inputMode="decimal" maxLength={14} suffix="SEK" />
          </Form.Item>
          <Form.Item name="invoice_number" label={t('claims.invoice_number')} rules={required}>
            <Input data-testid="claim-invoice_number" maxLength={50} />
          </Form.Item>
          <Form.Item name="due_date" label={t('claims.due_date')} rules={required}>
            <Input data-testid="claim-due_date" type="date" min="1900-01-01" max="2100-12-31" />
          </Form.Item>
          <Form.Item label={t('claims.invoice')} required validateStatus={invoiceError ? 'error' : undefined} help={invoiceError ?? t('claims.pdfOnly')}>
            <Space orientation="vertical">
              <input
                type="file"
                accept="application/pdf,.pdf"
                aria-label={t('claims.invoice')}
                data-testid="claim-file"
                disabled={uploading}
                onChange={(e) => {
                  void upload(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              {invoice && <Typography.Text data-testid="claim-invoice-name">{invoice.name}</Typography.Text>}
            </Space>
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} disabled={uploading} data-testid="claim-submit">
            {t('claims.register')}
          </Button>
        </Form>
      </Card>
      <RefreshCard
        title={t('claims.listTitle')}
        refresh={{ onClick: load, label: t('claims.refresh'), testId: 'claim-refresh' }}
        testId="claim-list"
      >
        <Table<Claim>
          rowKey="uid"
          loading={claims === null}
          dataSource={claims ?? []}
          pagination={{ pageSize: 10 }}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('claims.empty') }}
          columns={[
            { title: t('claims.invoice_number'), dataIndex: 'invoice_number' },
            { title: t('claims.debtor_name'), dataIndex: 'debtor_name' },
            { title: t('claims.amount'), dataIndex: 'amount', align: 'right', render: (a: number) => formatOre(a) },
            { title: t('claims.due_date'), dataIndex: 'due_date' },
            { title: t('claims.agency_reference'), dataIndex: 'agency_reference', render: (r?: string | null) => r || '–' },
            {
              title: t('claims.status'),
              dataIndex: 'status',
              render: (s: ClaimStatus) => (
                <Tag color={STATUS_COLOUR[s] ?? 'default'} data-testid="claim-status">
                  {t(`claims.statuses.${s}`, { defaultValue: s })}
                </Tag>
              ),
            },
          ]}
        />
      </RefreshCard>
    </Space>
  );
}

/** A card of what the office last read from the server, with a button in its corner that reads it again. */
export function RefreshCard(props: {
  title: string;
  /** The corner button: what it does and says, and its test id. */
  refresh: { onClick: () => void; label: string; testId: string };
  testId: string;
  children: ReactNode;
}) {
  const { refresh } = props;
  return (
    <Card
      title={props.title}
      extra={
        <Button onClick={refresh.onClick} data-testid={refresh.testId}>
          {refresh.label}
        </Button>
      }
      data-testid={props.testId}
    >
      {props.children}
    </Card>
  );
}
