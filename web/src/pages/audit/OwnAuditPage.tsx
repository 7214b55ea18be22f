import { Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ownAuditPage } from '../../api/audit';
import { useCursorList } from '../../api/paging';
import { useAreaRole } from '../../routes/pathFor';
import type { AuditEvent } from '../../types/audit';
import { AuditFrame, PeriodPicker, type Period } from './AuditFrame';
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
  const [period, setPeriod] = useState<Period>({});
  const list = useCursorList<AuditEvent>((cursor) => ownAuditPage(period, cursor), JSON.stringify(period));
  return (
    <AuditFrame
      testId="own-audit-page"
      title={t(titleKey, { ns: 'routes' })}
      intro={t('ownIntro')}
      filters={
        <Form layout="vertical" className="audit-filters">
          <Form.Item label={t('filter.period')}>
            <PeriodPicker value={period} onChange={setPeriod} testId="own-audit-period" maxWidth={360} />
          </Form.Item>
        </Form>
      }
      table={<AuditTable role={role} rows={list.rows} loading={list.loading} error={list.error} onRetry={list.reload} />}
      list={list}
      pagerTestId="own-audit-pager"
    />
  );
}
