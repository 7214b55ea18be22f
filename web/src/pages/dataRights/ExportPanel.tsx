import { Alert, Button, Card, List, Progress, Space, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './texts';
import { dataExports, inProgress, requestDataExport } from '../../api/dataRights';
import { serverMessages } from '../../api/formErrors';
import type { ExportState, ExportView } from '../../types/dataRights';

/** How often the page asks again while an export is being made. */
export const POLL_MS = 3000;

const COLOURS: Record<ExportState, string> = { queued: 'default', running: 'processing', ready: 'success', failed: 'error', expired: 'default' };

/** `YYYY-MM-DD` of a server time (spec §9's date format). */
export function dayOf(at: string | null | undefined): string {
  return at ? at.slice(0, 10) : '';
}

/** A file size in the reader's words (kB or MB). */
export function sizeText(bytes: number | null | undefined, lang: string): string {
  if (bytes == null) return '';
  const mb = bytes / (1024 * 1024);
  const fmt = (n: number) => n.toLocaleString(lang === 'en' ? 'en-GB' : 'sv-SE', { maximumFractionDigits: 1 });
  return mb >= 1 ? `${fmt(mb)} MB` : `${fmt(Math.max(bytes / 1024, 0.1))} kB`;
}

/**
 * The customer's data exports (GDPR art. 15 and 20): ask for a new one,
 * follow its progress (polled while it is being made), download a ready one
 * until its expiry date. The customer on "My data", admin on the customer's page.
 */
export default function ExportPanel({ customerUid, staff = false, person = false }: { customerUid: string; staff?: boolean; person?: boolean }) {
  const { t, i18n } = useTranslation('dataRights');
  const [exports, setExports] = useState<ExportView[] | null>(null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    dataExports(customerUid).then(setExports, () => setExports([]));
  }, [customerUid]);
  useEffect(load, [load]);
  const busy = !!exports?.some(inProgress);
  useEffect(() => {
    if (!busy) return;
    const timer = window.setInterval(load, POLL_MS);
    return () => window.clearInterval(timer);
  }, [busy, load]);
  const ask = async () => {
    setAsking(true);
    setError(null);
    try {
      const made = await requestDataExport(customerUid);
      setExports((now) => [made, ...(now ?? [])]);
    } catch (e) {
      setError(serverMessages(e).join(' ') || t('failed'));
    } finally {
      setAsking(false);
    }
  };
  return (
    <Card title={t('export.title')} data-testid="data-export-panel" className="data-rights-card">
      <Typography.Paragraph>{staff ? t('export.introStaff') : t('export.intro', { context: person ? 'person' : undefined })}</Typography.Paragraph>
      <Button type="primary" onClick={ask} loading={asking} disabled={busy} data-testid="data-export-request">
        {t('export.request')}
      </Button>
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} data-testid="data-export-error" />}
      <List
        style={{ marginTop: 16 }}
        loading={exports === null}
        dataSource={exports ?? []}
        locale={{ emptyText: t('export.none') }}
        renderItem={(e) => (
          <List.Item data-testid={`data-export-${e.state}`}>
            <Space orientation="vertical" style={{ width: '100%', minWidth: 0 }}>
              <Space wrap>
                <Typography.Text strong>{t('export.askedOn', { day: dayOf(e.created_at) })}</Typography.Text>
                <Tag color={COLOURS[e.state]}>{t(`state.${e.state}`)}</Tag>
              </Space>
              {inProgress(e) && (
                <Progress percent={Math.round((100 * e.step) / Math.max(e.steps, 1))} size="small" data-testid="data-export-progress" />
              )}
              {e.state === 'ready' && e.download_url && (
                <Space wrap>
                  <Button icon={<DownloadOutlined />} href={e.download_url} data-testid="data-export-download">
                    {t('export.download')}
                  </Button>
                  <Typography.Text type="secondary">
                    {t('export.until', { day: dayOf(e.expires_at) })} · {sizeText(e.size, i18n.language)} · {t('export.files', { count: e.files ?? 0 })}
                  </Typography.Text>
                </Space>
              )}
              {e.state === 'failed' && <Typography.Text type="danger">{t('export.failedHint')}</Typography.Text>}
              {e.state === 'expired' && <Typography.Text type="secondary">{t('export.expiredHint')}</Typography.Text>}
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
