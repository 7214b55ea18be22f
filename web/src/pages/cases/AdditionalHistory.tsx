import { Card } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import Link from '../../components/Link';
import { additionalHistory } from '../../api/caseHours';
import { useList } from '../../api/useList';
import type { HistoryEntry } from '../../types/cases';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { TableSkeleton } from '../../components/Skeletons';
import { formatDateTime } from '../../format';
import PageTitle from '../../components/PageTitle';

/** cases/history-additional/{id}: every change of the case's additional hours, who and when, before and after. */
export default function AdditionalHistory({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('caseHours');
  const { id = '' } = useParams();
  const role = useAreaRole();
  // Two changes can share a second: the key is the entry's place in the server's order, given once at load.
  const { rows: loaded, loading } = useList(async () => (await additionalHistory(id)).map((r, i) => ({ ...r, key: `${r.at}-${i}` })), id);
  const rows = loaded ?? [];
  return (
    <div className="page" data-testid="additional-history-page">
      <PageTitle titleKey={titleKey} />
      <Link to={pathFor(role, 'caseDetails', { id })}>{t('update.back')}</Link>
      <Card style={{ marginTop: 16 }}>
        <Table<HistoryEntry & { key: string }>
          rowKey="key"
          data-testid="additional-history-table"
          loading={loading && rows.length > 0}
          dataSource={rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: loading ? <TableSkeleton /> : t('table.empty') }}
          columns={[
            { title: t('history.at'), key: 'at', render: (_, r) => formatDateTime(r.at) },
            { title: t('history.by'), dataIndex: 'by_name', key: 'by' },
            { title: t('history.before'), key: 'before', render: (_, r) => r.before ?? '–' },
            { title: t('history.after'), key: 'after', render: (_, r) => r.after ?? '–' },
          ]}
        />
      </Card>
    </div>
  );
}
