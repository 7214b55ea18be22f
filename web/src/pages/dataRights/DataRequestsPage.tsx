import { Alert, Button, Input, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Link from '../../components/Link';
import './texts';
import Table from '../../components/ResponsiveTable';
import { dataRequests, decideErasure } from '../../api/dataRights';
import { serverMessages } from '../../api/formErrors';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import type { RequestRow } from '../../types/dataRights';
import { dayOf } from './ExportPanel';
import PageTitle from '../../components/PageTitle';

/** The states the list filters on, in the order the filter offers them. */
export const STATES = ['pending', 'approved', 'erased', 'refused', 'queued', 'running', 'ready', 'failed', 'expired'] as const;
/** A refusal's reason: at most this many characters (the server's limit). */
export const REASON_MAX = 1000;

/**
 * Customers → Data requests (admin): every customer's exports and
 * requests to be forgotten, newest first, filtered by state (kept in the
 * address); a pending erasure is approved or refused (with a reason the
 * customer reads) here. An export is started on the customer's page.
 */

/** The neutral text the server writes over an erased customer's names (`data_rights::ERASED_TEXT`). */
const ERASED_TEXT = '[raderad]';
/** A name made only of that text ("[raderad] [raderad]": first and last name) is shown translated. */
const isErasedName = (name: string) => name.trim() !== '' && name.trim().split(/\s+/).every((w) => w === ERASED_TEXT);

export default function DataRequestsPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('dataRights');
  const role = useAreaRole();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const [rows, setRows] = useState<RequestRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [refusing, setRefusing] = useState<RequestRow | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    (cursor?: string | null) => {
      dataRequests(status, cursor).then(
        (p) => {
          setRows((now) => (cursor ? [...(now ?? []), ...p.results] : p.results));
          setNext(p.next ?? null);
        },
        () => setRows([]),
      );
    },
    [status],
  );
  useEffect(() => {
    setRows(null);
    load();
  }, [load]);

  const decide = async (r: RequestRow, approve: boolean, why?: string) => {
    setBusy(r.id);
    setError(null);
    try {
      await decideErasure(r.customer_uid, r.id, approve, why);
      setRefusing(null);
      setReason('');
      load();
    } catch (e) {
      setError(serverMessages(e).join(' ') || t('requests.failed'));
    } finally {
      setBusy(null);
    }
  };

  const columns = [
    {
      title: t('requests.customer'),
      key: 'customer',
      render: (_: unknown, r: RequestRow) => (
        <Link to={pathFor(role, 'customerDetails', { customer_uid: r.customer_uid })} style={{ overflowWrap: 'anywhere' }}>
          {isErasedName(r.customer_name) ? t('requests.erasedCustomer') : r.customer_name || r.customer_uid}
        </Link>
      ),
    },
    { title: t('requests.kind'), key: 'kind', render: (_: unknown, r: RequestRow) => t(`requests.kinds.${r.kind}`) },
    {
      title: t('requests.state'),
      key: 'state',
      // A refusal's reason is part of the request's state, so it is shown
      // with it (on a phone's card too), not under the actions.
      onCell: (r: RequestRow) => (r.reason ? { className: 'cell-with-note' } : {}),
      render: (_: unknown, r: RequestRow) => (
        <>
          <Tag data-testid={`request-state-${r.id}`}>{t(`requests.states.${r.state}`)}</Tag>
          {r.reason && (
            <Typography.Text type="secondary" className="cell-note" data-testid={`request-reason-${r.id}`}>
              {t('requests.reason')}: {r.reason}
            </Typography.Text>
          )}
        </>
      ),
    },
    // A day is never broken over two lines (a long refusal reason in the row narrows the column).
    { title: t('requests.created'), key: 'created', render: (_: unknown, r: RequestRow) => <span style={{ whiteSpace: 'nowrap' }}>{dayOf(r.created_at)}</span> },
    { title: t('requests.done'), key: 'done', render: (_: unknown, r: RequestRow) => <span style={{ whiteSpace: 'nowrap' }}>{dayOf(r.done_at) || '–'}</span> },
    {
      title: t('requests.actions'),
      key: 'actions',
      // Only a pending erasure has actions; a phone's card leaves out the empty line.
      onCell: (r: RequestRow) => (r.kind === 'erasure' && r.state === 'pending' ? {} : { className: 'cell-empty' }),
      render: (_: unknown, r: RequestRow) =>
        r.kind === 'erasure' && r.state === 'pending' ? (
          <Space wrap>
            <Popconfirm
              title={t('requests.approveConfirm')}
              okText={t('requests.approve')}
              cancelText={t('erasure.cancel')}
              okButtonProps={{ danger: true, ...({ 'data-testid': 'request-approve-confirm' } as Record<string, string>) }}
              onConfirm={() => decide(r, true)}
            >
              <Button danger size="small" loading={busy === r.id} data-testid={`request-approve-${r.id}`}>
                {t('requests.approve')}
              </Button>
            </Popconfirm>
            <Button size="small" onClick={() => setRefusing(r)} data-testid={`request-refuse-${r.id}`}>
              {t('requests.refuse')}
            </Button>
          </Space>
        ) : null,
    },
  ];

  return (
    <div className="page" data-testid="data-requests-page">
      <PageTitle titleKey={titleKey} />
      <Typography.Paragraph style={{ maxWidth: 720 }}>{t('requests.intro')}</Typography.Paragraph>
      <Select
        style={{ width: 240, maxWidth: '100%', marginBottom: 16 }}
        value={status}
        onChange={(v) => setParams(v ? { status: v } : {})}
        data-testid="data-requests-status"
        aria-label={t('requests.state')}
        options={[{ value: '', label: t('requests.all') }, ...STATES.map((s) => ({ value: s, label: t(`requests.states.${s}`) }))]}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="data-requests-error" />}
      <Table<RequestRow>
        rowKey="id"
        loading={rows === null}
        dataSource={rows ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('requests.none') }}
      />
      {next && (
        <Button style={{ marginTop: 12 }} onClick={() => load(next)} data-testid="data-requests-more">
          {t('requests.more')}
        </Button>
      )}
      <Modal
        open={!!refusing}
        title={t('requests.refuseTitle')}
        okText={t('requests.refuse')}
        cancelText={t('erasure.cancel')}
        okButtonProps={{ disabled: !reason.trim(), loading: !!busy, ...({ 'data-testid': 'request-refuse-confirm' } as Record<string, string>) }}
        onOk={() => refusing && decide(refusing, false, reason)}
        onCancel={() => setRefusing(null)}
      >
        <Typography.Paragraph>{t('requests.refuseHint')}</Typography.Paragraph>
        <Input.TextArea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={REASON_MAX}
          showCount
          rows={4}
          // Room for the count under the field, clear of the dialog's buttons.
          style={{ marginBottom: 24 }}
          aria-label={t('requests.reason')}
          data-testid="request-refuse-reason"
        />
      </Modal>
    </div>
  );
}
