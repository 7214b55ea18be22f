import { Alert, Button, Card, List, Modal, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './texts';
import { erasureRequests, requestErasure } from '../../api/dataRights';
import { serverMessages } from '../../api/formErrors';
import type { ErasureRequest, ErasureState, Kept } from '../../types/dataRights';
import { dayOf } from './ExportPanel';

export const ERASURE_COLOURS: Record<ErasureState, string> = { pending: 'processing', approved: 'warning', erased: 'default', refused: 'error' };

/** One kept record as a line: "Case 2026-000001: kept until 2036-05-01". */
export function KeptLine({ k }: { k: Kept }) {
  const { t } = useTranslation('dataRights');
  const until = k.until ? t('erasure.keptUntil', { day: dayOf(k.until) }) : t('erasure.keptUntilClosed');
  return (
    <li data-testid={`erasure-kept-${k.kind}`}>
      {t(`erasure.kept.${k.kind}`, { reference: k.reference ?? '' })}: {until}
    </li>
  );
}

/**
 * The customer's right to be forgotten (GDPR art. 17): what happens is
 * explained first (what is erased at once, what the firm must keep and for
 * how long), then the request is confirmed; admin decides, and its answer
 * (a refusal's reason, or what was kept and until when) shows here.
 */
export default function ErasurePanel({ customerUid, person = false }: { customerUid: string; person?: boolean }) {
  const { t } = useTranslation('dataRights');
  const context = person ? 'person' : undefined;
  const [requests, setRequests] = useState<ErasureRequest[] | null>(null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    erasureRequests(customerUid).then(setRequests, () => setRequests([]));
  }, [customerUid]);
  useEffect(load, [load]);
  const open = !!requests?.some((r) => r.state === 'pending' || r.state === 'approved');
  const ask = async () => {
    setAsking(true);
    setError(null);
    try {
      const made = await requestErasure(customerUid);
      setRequests((now) => [made, ...(now ?? [])]);
    } catch (e) {
      setError(serverMessages(e).join(' ') || t('erasure.failed'));
    } finally {
      setAsking(false);
    }
  };
  const confirm = () =>
    Modal.confirm({
      title: t('erasure.confirmTitle'),
      content: t('erasure.confirmText'),
      okText: t('erasure.confirm'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'erasure-confirm' } as Record<string, string>) },
      cancelText: t('erasure.cancel'),
      onOk: ask,
    });
  return (
    <Card title={t('erasure.title')} data-testid="erasure-panel" className="data-rights-card" style={{ marginTop: 16 }}>
      <Typography.Paragraph>{t('erasure.intro', { context })}</Typography.Paragraph>
      <ul className="erasure-explained">
        <li>{t('erasure.erased', { context })}</li>
        <li>{t('erasure.keptCases', { context })}</li>
        <li>{t('erasure.keptOther')}</li>
        <li>{t('erasure.signOut', { context })}</li>
      </ul>
      <Button danger onClick={confirm} loading={asking} disabled={open || requests === null} data-testid="erasure-request">
        {t('erasure.request')}
      </Button>
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} data-testid="erasure-error" />}
      <List
        style={{ marginTop: 16 }}
        loading={requests === null}
        dataSource={requests ?? []}
        locale={{ emptyText: t('erasure.none') }}
        renderItem={(r) => (
          <List.Item data-testid={`erasure-${r.state}`}>
            <div style={{ width: '100%', minWidth: 0 }}>
              <Typography.Text strong>{t('erasure.askedOn', { day: dayOf(r.created_at) })}</Typography.Text>{' '}
              <Tag color={ERASURE_COLOURS[r.state]}>{t(`erasure.state.${r.state}`)}</Tag>
              {r.state === 'pending' && <Typography.Paragraph type="secondary">{t('erasure.pendingHint')}</Typography.Paragraph>}
              {r.state === 'refused' && (
                <Typography.Paragraph data-testid="erasure-reason" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {t('erasure.reason')}: {r.reason}
                </Typography.Paragraph>
              )}
              {!!r.kept?.length && (
                <>
                  <Typography.Paragraph style={{ marginBottom: 4 }}>{t('erasure.keptTitle')}</Typography.Paragraph>
                  <ul>
                    {r.kept.map((k: Kept) => (
                      <KeptLine key={`${k.kind}-${k.reference ?? ''}`} k={k} />
                    ))}
                  </ul>
                </>
              )}
            </div>
          </List.Item>
        )}
      />
    </Card>
  );
}
