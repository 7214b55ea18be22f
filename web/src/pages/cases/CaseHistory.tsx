import { Card, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { caseHistory, caseName } from '../../api/cases';
import type { CaseName, HistoryEntry } from '../../types/cases';
import { pathFor, useAreaRole } from '../../routes/pathFor';

/** cases/history/{id}: every recorded change, who and when, before and after. */
export default function CaseHistory({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('cases');
  const { id = '' } = useParams();
  const role = useAreaRole();
  const [rows, setRows] = useState<HistoryEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [name, setName] = useState<CaseName | null>(null);
  useEffect(() => {
    caseName(id)
      .then(setName)
      .catch(() => setName(null));
    caseHistory(id)
      .then(setRows)
      .catch(() => setRows([]))
      .finally(() => setLoading(false));
  }, [id]);
  return (
    <div className="page" data-testid="case-history-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      {name && (
        <Typography.Paragraph type="secondary" data-testid="case-history-name">
          {name.case_number} · {name.subject} · {name.customer_name}
        </Typography.Paragraph>
      )}
      <Link to={pathFor(role, 'caseDetails', { id })}>{t('details.back')}</Link>
      <Card style={{ marginTop: 16 }}>
        <Table<HistoryEntry>
          rowKey={(r) => `${r.at}|${r.by}|${r.field}|${r.before ?? ""}|${r.after ?? ""}`}
          data-testid="case-history-table"
          loading={loading}
          dataSource={rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('list.empty') }}
          columns={[
            { title: t('history.at'), key: 'at', render: (_, r) => dayjs(r.at).format('YYYY-MM-DD HH:mm') },
            { title: t('history.by'), dataIndex: 'by_name', key: 'by' },
            { title: t('history.field'), key: 'field', render: (_, r) => t(`history.fields.${r.field}`, { defaultValue: r.field }) },
            { title: t('history.before'), key: 'before', render: (_, r) => r.before ?? '–' },
            { title: t('history.after'), key: 'after', render: (_, r) => r.after ?? '–' },
          ]}
        />
      </Card>
    </div>
  );
}
