import { Card, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import Link from '../../components/Link';
import { caseHistory, caseName } from '../../api/cases';
import { useList, useLoad } from '../../api/useList';
import type { HistoryEntry } from '../../types/cases';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import ListEmpty from '../../components/ListEmpty';
import { formatHours } from './status';
import { StatusTag } from './CaseList';
import { TableSkeleton } from '../../components/Skeletons';
import { countryName, formatAddress, formatDateTime, namedIn, type AddressParts } from '../../format';
import PageTitle from '../../components/PageTitle';

/** A recorded object (the case type, the address) as it was saved: JSON text; null when it is not. */
function recorded<T>(value: string): T | null {
  try {
    const v: unknown = JSON.parse(value);
    return v && typeof v === 'object' ? (v as T) : null;
  } catch {
    return null;
  }
}

/**
 * A recorded value as the user reads it: a status by its §4 display name, hours in their language,
 * the case type and the address's country in their language.
 */
export function Value({ field, value }: { field: string; value: string | null }) {
  const { i18n } = useTranslation();
  if (value == null || value === '') return <>–</>;
  if (field === 'status') return <StatusTag status={value} />;
  if (field === 'type' || field === 'knowledge_sector') {
    const type = recorded<{ name: string; name_en?: string | null }>(value);
    if (type?.name) return <>{namedIn(type, i18n.language)}</>;
  }
  if (field === 'address') {
    const address = recorded<AddressParts>(value);
    if (address) return <>{formatAddress({ ...address, country: countryName(address.country, i18n.language) }) || '–'}</>;
  }
  if (/hour/.test(field) && /^-?\d+(\.\d+)?$/.test(value)) return <>{formatHours(Number(value))}</>;
  return <>{value}</>;
}

/** cases/history/{id}: every recorded change, who and when, before and after. */
export default function CaseHistory({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('cases');
  const { id = '' } = useParams();
  const role = useAreaRole();
  const { rows: loaded, loading, error } = useList(() => caseHistory(id), id);
  const rows = loaded ?? [];
  const { data: name } = useLoad(() => caseName(id), id);
  return (
    <div className="page" data-testid="case-history-page">
      <PageTitle titleKey={titleKey} />
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
          loading={loading && rows.length > 0}
          dataSource={rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: loading ? <TableSkeleton /> : <ListEmpty error={error} /> }}
          columns={[
            { title: t('history.at'), key: 'at', render: (_, r) => <span className="nowrap">{formatDateTime(r.at)}</span> },
            { title: t('history.by'), dataIndex: 'by_name', key: 'by' },
            { title: t('history.field'), key: 'field', render: (_, r) => t(`history.fields.${r.field}`, { defaultValue: r.field }) },
            { title: t('history.before'), key: 'before', render: (_, r) => <Value field={r.field} value={r.before ?? null} /> },
            { title: t('history.after'), key: 'after', render: (_, r) => <Value field={r.field} value={r.after ?? null} /> },
          ]}
        />
      </Card>
    </div>
  );
}
