/**
 * The activity page's cases list (spec §7 `statistic/activity/cases`): the
 * cases opened in the period beneath the chart, 10 a page, newest first,
 * with the same columns as the workbook of `statistic/activity/excel/`.
 */
import { Card, Tag } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { fetchActivityCases } from '../../api/statistics';
import { useCursorList } from '../../api/paging';
import CursorPager from '../../components/CursorPager';
import type { Case } from '../../types/cases';
import type { PeriodQuery } from '../../types/statistics';

/** Spec §4 status colours. */
const COLOUR: Record<string, string> = { draft: 'red', waiting: 'orange', inprogress: 'blue', complete: 'default' };

/** The Stockholm day a case was opened (the workbook's "opened"). */
export function openedDay(at: string): string {
  return new Date(at).toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });
}

export default function ActivityCases({ period }: { period: PeriodQuery }) {
  const { t } = useTranslation('statistics');
  const key = `${period.period}|${period.from ?? ''}|${period.to ?? ''}`;
  const list = useCursorList<Case>((cursor) => fetchActivityCases(period, cursor), key);
  return (
    <Card title={t('activityCases.title')}>
      <Table<Case>
        data-testid="activity-cases"
        size="small"
        rowKey="uid"
        loading={list.loading}
        dataSource={list.rows}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('empty') }}
        columns={[
          { key: 'case_number', title: t('activityCases.case_number'), dataIndex: 'case_number' },
          { key: 'subject', title: t('activityCases.subject'), dataIndex: 'subject' },
          { key: 'customer', title: t('activityCases.customer'), dataIndex: 'customer_name' },
          {
            key: 'status',
            title: t('activityCases.status'),
            render: (_, r) => {
              const word = r.status.toLowerCase();
              return <Tag color={COLOUR[word] ?? 'default'}>{t(`metric.cases.status.${word}`, { defaultValue: 'N/A' })}</Tag>;
            },
          },
          { key: 'type', title: t('activityCases.type'), render: (_, r) => r.type?.name ?? '–' },
          { key: 'lawyer', title: t('activityCases.lawyer'), render: (_, r) => r.lawyer_name || '–' },
          { key: 'opened', title: t('activityCases.opened'), render: (_, r) => openedDay(r.created_at) },
        ]}
      />
      <CursorPager list={list as never} testId="activity-cases-pager" />
    </Card>
  );
}
