import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MassUpdatePayload } from '../../types/caseHours';
import { useFeedback } from '../../layout/feedback';

/**
 * "Mark as invoiced" / "Mark as not invoiced" for the selected rows of an
 * hours table (one all-or-nothing call; errors are notified by the client).
 */
export default function HourBulkActions({
  caseUid,
  selected,
  send,
  onDone,
  testPrefix,
}: {
  caseUid: string;
  selected: string[];
  send: (body: MassUpdatePayload) => Promise<unknown>;
  onDone: () => void;
  testPrefix: string;
}) {
  const { t } = useTranslation('caseHours');
  const { message } = useFeedback();
  const [busy, setBusy] = useState(false);
  if (selected.length === 0) return null;
  const mark = async (is_invoiced: boolean) => {
    setBusy(true);
    try {
      await send({ case_uid: caseUid, ids: selected, is_invoiced });
      void message.success(t('bulk.done', { count: selected.length }));
      onDone();
    } catch {
      /* notified by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space style={{ marginBottom: 8 }} wrap data-testid={`${testPrefix}-bulk`}>
      <Typography.Text>{t('bulk.selected', { count: selected.length })}</Typography.Text>
      <Button size="small" loading={busy} onClick={() => mark(true)} data-testid={`${testPrefix}-mark-invoiced`}>
        {t('bulk.markInvoiced')}
      </Button>
      <Button size="small" loading={busy} onClick={() => mark(false)} data-testid={`${testPrefix}-mark-not-invoiced`}>
        {t('bulk.markNotInvoiced')}
      </Button>
    </Space>
  );
}
