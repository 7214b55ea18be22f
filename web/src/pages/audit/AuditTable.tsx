import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import Table from '../../components/ResponsiveTable';
import ListEmpty from '../../components/ListEmpty';
import { TableSkeleton } from '../../components/Skeletons';
import { formatDateTime } from '../../format';
import type { Role } from '../../auth/roles';
import { hasRoute, pathFor } from '../../routes/pathFor';
import type { AuditAction, AuditEvent } from '../../types/audit';
import './texts';

/** The actions whose subject is a case's uid (and detail its number): shown as a link to the case. */
const CASE_SUBJECT: readonly AuditAction[] = ['case_viewed', 'messages_read'];

/** Event tag colours: reads blue, changes orange, sign-ins and searches grey or red. */
export const ACTION_COLOURS: Record<AuditAction, string> = {
  case_viewed: 'blue',
  document_downloaded: 'blue',
  messages_read: 'blue',
  customer_viewed: 'blue',
  document_uploaded: 'orange',
  customer_changed: 'orange',
  subscription_changed: 'orange',
  permissions_changed: 'orange',
  export_made: 'purple',
  signed_in: 'default',
  sign_in_failed: 'red',
  conflict_search: 'geekblue',
  records_erased: 'volcano',
  retention_run: 'default',
};

/** The retention job's events: it acts alone, with no user behind it. */
const BY_RETENTION_JOB: readonly AuditAction[] = ['records_erased', 'retention_run'];

/** What an event concerns, in words: a case's number, a document and its case, an export's name. */
export function concerns(e: AuditEvent): string {
  if (CASE_SUBJECT.includes(e.action)) return e.detail ?? '';
  if (e.action === 'document_downloaded' || e.action === 'document_uploaded') return [e.subject, e.detail].filter(Boolean).join(' · ');
  if (e.action === 'customer_viewed' || e.action === 'customer_changed') return '';
  return e.subject ?? '';
}

/** A stored word (a field, a permission) readable when no text names it: "company_name" → "company name". */
const humane = (word: string) => word.replace(/_/g, ' ');

/**
 * An event's detail in the reader's language: refusal reasons and
 * subscription changes by their words, a customer record's changed fields
 * and a contact's permissions (before → after) by their labels, a conflict
 * search by its number of hits; anything else as stored. `tr(key, fallback,
 * vars)` translates.
 */
export function detailText(e: AuditEvent, tr: (key: string, fallback: string, vars?: Record<string, unknown>) => string): string | null {
  if (e.action === 'conflict_search' && e.hits != null) return tr('audit:hits', String(e.hits), { count: e.hits });
  if (e.action === 'retention_run' && e.detail) {
    // `due=2;erased=2;kept=0;failed=0`
    const figures = Object.fromEntries(e.detail.split(';').map((p) => p.split('=') as [string, string]));
    return tr('audit:retentionRun', e.detail, figures);
  }
  if (!e.detail || CASE_SUBJECT.includes(e.action) || e.action.startsWith('document_')) return null;
  if (e.action === 'customer_changed') {
    return e.detail
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean)
      .map((f) => tr(`audit:field.${f}`, humane(f)))
      .join(', ');
  }
  if (e.action === 'permissions_changed') {
    const side = (codes: string) =>
      codes
        .split(' ')
        .filter(Boolean)
        .map((c) => tr(`users:permissions.${c}`, humane(c)))
        .join(', ') || '–';
    const [before, after = ''] = e.detail.split('->');
    return `${side(before)} → ${side(after)}`;
  }
  return tr(`audit:detail.${e.detail}`, humane(e.detail));
}

/** A row's "only this user" or "only this customer": narrows the list to the row's user or customer. */
function OnlyThis({ label, testId, onClick }: { label: string; testId: string; onClick: () => void }) {
  return (
    <Tooltip title={label}>
      <Button size="small" type="text" icon={<FilterOutlined />} aria-label={label} data-testid={testId} onClick={onClick} />
    </Tooltip>
  );
}

/**
 * The trail's rows (admin's page and the customer's own): time, event, who
 * (name and role) and what it concerns; the admin's has the customer too and
 * narrows the list to a user or a customer from a row. Below 768 px each row
 * is a card (ResponsiveTable) with its actions in view.
 */
export default function AuditTable({
  role,
  rows,
  loading,
  error,
  onRetry,
  customers,
  onUser,
  onCustomer,
}: {
  role: Role;
  rows: AuditEvent[];
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  /** Names of the customers on the page (admin); none: no customer column. */
  customers?: Record<string, string>;
  onUser?: (uid: string) => void;
  onCustomer?: (uid: string) => void;
}) {
  const { t } = useTranslation('audit');
  const showCases = hasRoute(role, 'caseDetails');

  const detail = (e: AuditEvent) => detailText(e, (key, fallback, vars) => t(key, { defaultValue: fallback, ...vars }));

  return (
    <Table<AuditEvent>
      rowKey="id"
      data-testid="audit-table"
      loading={loading && rows.length > 0}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: loading ? <TableSkeleton /> : error ? <ListEmpty error onRetry={onRetry} /> : <ListEmpty /> }}
      onRow={(r) => ({ 'data-testid': `audit-row-${r.action}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        {
          title: t('column.at'),
          key: 'at',
          render: (_, e) => <span data-testid="audit-at">{formatDateTime(e.at)}</span>,
        },
        {
          title: t('column.action'),
          key: 'action',
          render: (_, e) => (
            <Tag color={ACTION_COLOURS[e.action]} data-testid="audit-action">
              {t(`action.${e.action}`)}
            </Tag>
          ),
        },
        {
          title: t('column.actor'),
          key: 'actor',
          render: (_, e) => (
            <Space size={4} wrap>
              <Typography.Text data-testid="audit-actor">
                {e.actor_name || (BY_RETENTION_JOB.includes(e.action) ? t('retentionJob') : t('unknownActor'))}
              </Typography.Text>
              {e.actor_role && <Tag data-testid="audit-role">{t(`role.${e.actor_role}`)}</Tag>}
              {onUser && e.actor_uid && <OnlyThis label={t('onlyUser')} testId="audit-only-user" onClick={() => onUser(e.actor_uid)} />}
            </Space>
          ),
        },
        ...(customers
          ? [
              {
                title: t('column.customer'),
                key: 'customer',
                render: (_: unknown, e: AuditEvent) =>
                  e.customer_uid ? (
                    <Space size={4}>
                      <Typography.Text data-testid="audit-customer">{customers[e.customer_uid] ?? '–'}</Typography.Text>
                      {onCustomer && (
                        <OnlyThis label={t('onlyCustomer')} testId="audit-only-customer" onClick={() => onCustomer(e.customer_uid as string)} />
                      )}
                    </Space>
                  ) : (
                    '–'
                  ),
              },
            ]
          : []),
        {
          title: t('column.concerns'),
          key: 'concerns',
          render: (_, e) => {
            const text = concerns(e);
            if (showCases && CASE_SUBJECT.includes(e.action) && e.subject) {
              return (
                <Link to={pathFor(role, 'caseDetails', { id: e.subject })} data-testid="audit-case-link">
                  {text || t('openCase')}
                </Link>
              );
            }
            return text || '–';
          },
        },
        {
          title: t('column.detail'),
          key: 'detail',
          render: (_, e) => detail(e) ?? '–',
        },
      ]}
    />
  );
}
