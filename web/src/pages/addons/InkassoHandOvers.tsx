/**
 * The office's debt-collection hand-overs (admin). No collection agency
 * publishes an API for this, so each customer's Inkasso account
 * application and claim is mailed to the firm's collection address and
 * listed here: staff register the client or the claim with the agency and
 * record its answer (approved with the customer number the agency gave, or
 * rejected; a claim's status and reference as the agency reports them).
 * The customer's Inkasso page shows what is recorded.
 */
import './texts';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { Button, Card, Descriptions, Empty, Input, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import Table from '../../components/ResponsiveTable';
import Loading from '../../components/Loading';
import { ApiError } from '../../api/errors';
import { translateServerMessage } from '../../i18n';
import { useFeedback } from '../../layout/feedback';
import { formatDateTime, formatOre } from '../../format';
import {
  CLAIM_STATUSES,
  claimInvoiceLink,
  decideApplication,
  listHandOvers,
  updateHandedOverClaim,
  type ApplicationHandOver,
  type ClaimHandOver,
  type ClaimStatus,
  type HandOvers,
} from '../../api/inkasso';
import { RefreshCard, STATUS_COLOUR } from './InkassoClaims';
import PageTitle from '../../components/PageTitle';

const ACCOUNT_FIELDS = ['organization_number', 'contact_name', 'home_page', 'bank_name', 'bank_account', 'plus_giro', 'bank_giro', 'iban', 'bic', 'approved_ip'] as const;

/** The first field message or the error's key, translated. */
function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    const key = Object.values(err.fieldErrors).flat()[0] ?? err.body?.message;
    if (key) return translateServerMessage(key);
  }
  return fallback;
}

function Application({ a, onDone }: { a: ApplicationHandOver; onDone: () => void }) {
  const { t } = useTranslation('addons');
  const { message } = useFeedback();
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const decide = async (state: 'approved' | 'rejected') => {
    if (state === 'approved' && !number.trim()) {
      setError(t('handovers.creditorRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await decideApplication(a.customer_uid, { state, creditor_id: state === 'approved' ? number.trim() : undefined });
      void message.success(t(state === 'approved' ? 'handovers.approved' : 'handovers.rejected'));
      onDone();
    } catch (err) {
      setError(errorText(err, t('handovers.failed')));
    } finally {
      setBusy(false);
    }
  };
  const p = a.prospect;
  return (
    <Card
      size="small"
      type="inner"
      title={a.customer_name || a.customer_uid}
      extra={<Tag color={p.handed_over_at ? 'success' : 'warning'}>{t(p.handed_over_at ? 'handovers.mailed' : 'handovers.notMailed')}</Tag>}
      data-testid="handover-application"
      data-customer={a.customer_uid}
    >
      <Descriptions size="small" column={{ xs: 1, sm: 1, md: 2 }} bordered>
        <Descriptions.Item label={t('handovers.appliedAt')}>{formatDateTime(p.applied_at)}</Descriptions.Item>
        {ACCOUNT_FIELDS.map((f) => (
          <Descriptions.Item key={f} label={t(`inkasso.${f}`)}>
            <span style={{ overflowWrap: 'anywhere' }}>{p.account[f] || '–'}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Space wrap style={{ marginTop: 12 }} align="start">
        <Input
          aria-label={t('handovers.creditorId')}
          placeholder={t('handovers.creditorId')}
          value={number}
          maxLength={64}
          status={error ? 'error' : undefined}
          onChange={(e) => setNumber(e.target.value)}
          style={{ width: 260, maxWidth: '100%' }}
          data-testid="handover-creditor-id"
        />
        <Button type="primary" loading={busy} onClick={() => void decide('approved')} data-testid="handover-approve">
          {t('handovers.approve')}
        </Button>
        <Popconfirm title={t('handovers.rejectConfirm')} onConfirm={() => void decide('rejected')}>
          <Button danger disabled={busy} data-testid="handover-reject">
            {t('handovers.reject')}
          </Button>
        </Popconfirm>
      </Space>
      {error && (
        <Typography.Paragraph type="danger" style={{ marginTop: 8, marginBottom: 0 }} data-testid="handover-error">
          {error}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/** A claim's status and the agency's reference, saved together. */
function ClaimEditor({ h, onDone }: { h: ClaimHandOver; onDone: () => void }) {
  const { t } = useTranslation('addons');
  const { message } = useFeedback();
  const [status, setStatus] = useState<ClaimStatus>(h.claim.status);
  const [reference, setReference] = useState(h.claim.agency_reference ?? '');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await updateHandedOverClaim(h.customer_uid, h.claim.uid, { status, agency_reference: reference.trim() || undefined });
      void message.success(t('handovers.saved'));
      onDone();
    } catch (err) {
      void message.error(errorText(err, t('handovers.failed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space wrap>
      <Select<ClaimStatus>
        value={status}
        onChange={setStatus}
        aria-label={t('claims.status')}
        style={{ width: 230, maxWidth: '100%' }}
        options={CLAIM_STATUSES.map((s) => ({ value: s, label: t(`claims.statuses.${s}`) }))}
        data-testid="handover-claim-status"
      />
      <Input
        aria-label={t('handovers.reference')}
        placeholder={t('handovers.reference')}
        value={reference}
        maxLength={64}
        onChange={(e) => setReference(e.target.value)}
        style={{ width: 170, maxWidth: '100%' }}
        data-testid="handover-claim-reference"
      />
      <Button type="primary" loading={busy} onClick={() => void save()} data-testid="handover-claim-save">
        {t('handovers.save')}
      </Button>
    </Space>
  );
}

export default function InkassoHandOvers({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('addons');
  const { data, reload } = useLoad<HandOvers>(listHandOvers, '', { applications: [], claims: [] });
  const load = () => void reload();
  const download = async (h: ClaimHandOver) => {
    const link = await claimInvoiceLink(h.customer_uid, h.claim.uid);
    window.open(link.url, '_blank', 'noopener');
  };

  if (data === null) return <Loading />;
  return (
    <div className="page" data-testid="inkasso-handovers-page">
      <PageTitle titleKey={titleKey} />
      <Typography.Paragraph type="secondary" style={{ maxWidth: 760 }}>
        {t('handovers.intro')}
      </Typography.Paragraph>
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <RefreshCard
          title={t('handovers.applications')}
          refresh={{ onClick: load, label: t('handovers.refresh'), testId: 'handover-refresh' }}
          testId="handover-applications"
        >
          {data.applications.length === 0 ? (
            <Empty description={t('handovers.noApplications')} />
          ) : (
            <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
              {data.applications.map((a) => (
                <Application key={a.customer_uid} a={a} onDone={load} />
              ))}
            </Space>
          )}
        </RefreshCard>
        <Card title={t('handovers.claims')} data-testid="handover-claims">
          <Table<ClaimHandOver>
            rowKey={(h) => `${h.customer_uid}/${h.claim.uid}`}
            dataSource={data.claims}
            pagination={{ pageSize: 20 }}
            locale={{ emptyText: t('handovers.noClaims') }}
            columns={[
              {
                title: t('handovers.customer'),
                // One element per cell: the phone's card layout lays a cell's children side by side.
                render: (_, h) => (
                  <span>
                    {h.customer_name || h.customer_uid}
                    {h.creditor_id && <Typography.Text type="secondary"> ({h.creditor_id})</Typography.Text>}
                  </span>
                ),
              },
              { title: t('claims.invoice_number'), render: (_, h) => h.claim.invoice_number },
              {
                title: t('claims.debtor_name'),
                render: (_, h) => (
                  <div style={{ overflowWrap: 'anywhere' }}>
                    {h.claim.debtor_name}
                    <br />
                    <Typography.Text type="secondary">
                      {h.claim.debtor_number} · {h.claim.debtor_address} · {h.claim.debtor_email}
                    </Typography.Text>
                  </div>
                ),
              },
              { title: t('claims.amount'), align: 'right', render: (_, h) => formatOre(h.claim.amount) },
              { title: t('claims.due_date'), render: (_, h) => h.claim.due_date },
              {
                title: t('handovers.invoice'),
                render: (_, h) => (
                  <Button size="small" onClick={() => void download(h)} data-testid="handover-claim-invoice">
                    {t('handovers.download')}
                  </Button>
                ),
              },
              {
                title: t('claims.status'),
                render: (_, h) => (
                  <Space orientation="vertical" size={4}>
                    <Tag color={STATUS_COLOUR[h.claim.status] ?? 'default'}>{t(`claims.statuses.${h.claim.status}`, { defaultValue: h.claim.status })}</Tag>
                    <ClaimEditor key={`${h.claim.status}/${h.claim.agency_reference ?? ''}`} h={h} onDone={load} />
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      </Space>
    </div>
  );
}
