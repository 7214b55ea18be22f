import { Card, Empty, Rate } from 'antd';
import Table from '../ResponsiveTable';
import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Rating } from '../../types/collaboration';
import { averageOf, RatingSummary, useLawyerRatings } from './RatingSummary';
import { formatDate } from '../../format';

export { averageOf, formatAverage, RatingSummary, useLawyerRatings } from './RatingSummary';

/** A lawyer's ratings as a table: case, customer, stars, comment, date. */
export function RatingsTable({ ratings }: { ratings: Rating[] }) {
  const { t } = useTranslation('collaboration');
  return (
    <Table<Rating>
      rowKey="case_uid"
      size="small"
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      dataSource={ratings}
      scroll={{ x: true }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ratings.empty')} /> }}
      data-testid="ratings-table"
      columns={[
        { title: t('ratings.case'), key: 'case', render: (_, r) => `${r.case_number} ${r.subject}` },
        { title: t('ratings.customer'), dataIndex: 'customer_name', key: 'customer' },
        { title: t('ratings.stars'), key: 'stars', render: (_, r) => <Rate disabled value={r.stars} style={{ fontSize: 14 }} /> },
        { title: t('ratings.comment'), dataIndex: 'comment', key: 'comment', render: (c: string) => c || '–' },
        { title: t('ratings.date'), key: 'at', render: (_, r) => formatDate(r.at) },
      ]}
    />
  );
}

/** A card of a lawyer's ratings: summary and table (admin's lawyer page; the lawyer's own page). */
export function LawyerRatingsCard({ lawyerUid, extra }: { lawyerUid?: string; extra?: ReactNode }) {
  const { t } = useTranslation('collaboration');
  const ratings = useLawyerRatings(lawyerUid);
  return (
    <Card title={t('ratings.title')} style={{ marginTop: 16 }} loading={ratings === null} extra={extra} data-testid="lawyer-ratings">
      <div style={{ marginBottom: 12 }}>
        <RatingSummary average={ratings ? averageOf(ratings) : null} count={ratings?.length ?? 0} />
      </div>
      <RatingsTable ratings={ratings ?? []} />
    </Card>
  );
}
