import { Card, DatePicker, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import dayjs from '../../i18n/dates';
import { ownAuditPage } from '../../api/audit';
import { useCursorList } from '../../api/paging';
import CursorPager from '../../components/CursorPager';
import { useAreaRole } from '../../routes/pathFor';
import type { AuditEvent } from '../../types/audit';
import AuditTable from './AuditTable';

/**
 * access-log/ (the customer): who at the firm opened the company's cases and
 * documents, read its messages, viewed or changed its record and
 * subscriptions, newest first, 25 a page, optionally within a period. The
 * server keeps out the company's own people's doings, sign-ins and searches.
 */
export default function OwnAuditPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('audit');
  const role = useAreaRole();
  const [period, setPeriod] = useState<{ from?: string; to?: string }>({});
  const list = useCursorList<AuditEvent>((cursor) => ownAuditPage(period, cursor), JSON.stringify(period));
  return (
    <div className="page" data-testid="own-audit-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('ownIntro')}</Typography.Paragraph>
      <Card>
        <Form layout="vertical" className="audit-filters">
          <Form.Item label={t('filter.period')}>
            <DatePicker.RangePicker
              value={period.from && period.to ? [dayjs(period.from), dayjs(period.to)] : null}
              onChange={(r) => setPeriod(r && r[0] && r[1] ? { from: r[0].format('YYYY-MM-DD'), to: r[1].format('YYYY-MM-DD') } : {})}
              disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
              data-testid="own-audit-period"
              style={{ width: '100%', maxWidth: 360 }}
            />
          </Form.Item>
        </Form>
        <AuditTable role={role} rows={list.rows} loading={list.loading} error={list.error} onRetry={list.reload} />
        <div style={{ marginTop: 16 }}>
          <CursorPager list={list} testId="own-audit-pager" />
        </div>
      </Card>
    </div>
  );
}
