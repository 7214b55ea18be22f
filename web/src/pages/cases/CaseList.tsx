import { PlusOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Input, Select, Space, Tag } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import Link from '../../components/Link';
import LinkTabs from '../../components/LinkTabs';
import { listCases } from '../../api/cases';
import { useBubbles } from '../../api/bubbles';
import type { Case } from '../../types/cases';
import { useCursorList } from '../../api/paging';
import CursorPager from '../../components/CursorPager';
import ListEmpty from '../../components/ListEmpty';
import { hasRoute, pathFor, useAreaRole } from '../../routes/pathFor';
import { CASE_TABS, type CaseOrder, type CaseTab } from './caseRules';
import { caseStatusChip } from './status';
import { TableSkeleton } from '../../components/Skeletons';
import { formatDate, formatDateTime, namedIn } from '../../format';
import PageTitle from '../../components/PageTitle';

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation('cases');
  const chip = caseStatusChip(status);
  return (
    <Tag color={chip.color} data-testid="case-status">
      {t(chip.labelKey)}
    </Tag>
  );
}

/** The §4 colour of a tab's status as a dot colour (antd Badge preset). */
function tabDot(tab: CaseTab): string | undefined {
  if (!tab.status) return undefined;
  const c = caseStatusChip(tab.status).color;
  return c === 'default' ? 'gray' : c;
}

const withSlash = (p: string) => (p.endsWith('/') ? p : `${p}/`);

/**
 * A role's case lists as one page: a tab per list in the URL (the
 * spec §2 route), a search box (case number, subject, customer, counterpart)
 * and the created-date sort in the query string, so Back returns to the same
 * list; 10 at a time, key-paged.
 */
export default function CaseList({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('cases');
  const role = useAreaRole();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const bubbles = useBubbles();
  const tabs = CASE_TABS[role];
  const tab = tabs.find((x) => withSlash(pathFor(role, x.route)) === withSlash(pathname)) ?? tabs[0];
  const search = params.get('search') ?? '';
  const order: CaseOrder = params.get('order') === 'asc' ? 'asc' : 'desc';
  const list = useCursorList<Case>((cursor) => listCases({ status: tab.word, search, order }, cursor), `${tab.word}|${search}|${order}`);

  const query = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    return next;
  };
  const tabLink = (x: CaseTab) => {
    const q = query({}).toString();
    return `${pathFor(role, x.route)}${q ? `?${q}` : ''}`;
  };

  return (
    <div className="page" data-testid="cases-page" data-tab={tab.word}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <PageTitle titleKey={titleKey} />
        {hasRoute(role, 'caseCreate') && (
          <Link to={pathFor(role, 'caseCreate')}>
            <Button type="primary" icon={<PlusOutlined />} data-testid="case-create">
              {t('list.create')}
            </Button>
          </Link>
        )}
      </Space>
      <Card>
        <LinkTabs
          active={tab.route}
          testId="case-tabs"
          label={t(titleKey, { ns: 'routes' })}
          items={tabs.map((x) => ({
            key: x.route,
            to: tabLink(x),
            testId: `case-tab-${x.word}`,
            label: (
              <>
                {tabDot(x) ? <Badge color={tabDot(x)} text={t(x.label)} /> : t(x.label)}
                {x.badge && bubbles[x.badge] > 0 && <Badge count={bubbles[x.badge]} size="small" data-testid={`case-tab-count-${x.word}`} />}
              </>
            ),
          }))}
        />
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            key={`${tab.word}|${search}`}
            allowClear
            defaultValue={search}
            placeholder={t('list.search')}
            aria-label={t('list.search')}
            onSearch={(v) => setParams(query({ search: v.trim() || null }))}
            style={{ width: 280, maxWidth: '100%' }}
            data-testid="cases-search"
          />
          <Select<CaseOrder>
            value={order}
            aria-label={t('list.sort')}
            onChange={(v) => setParams(query({ order: v === 'asc' ? 'asc' : null }))}
            options={[
              { value: 'desc', label: t('list.newestFirst') },
              { value: 'asc', label: t('list.oldestFirst') },
            ]}
            style={{ minWidth: 180 }}
            data-testid="cases-order"
          />
        </Space>
        <Table<Case>
          rowKey="uid"
          data-testid="cases-table"
          className="case-table"
          loading={list.loading && list.rows.length > 0}
          dataSource={list.rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: list.loading ? <TableSkeleton /> : <ListEmpty error={list.error} onRetry={list.reload} /> }}
          columns={[
            {
              title: t('fields.case_number'),
              key: 'case_number',
              fixed: 'left',
              render: (_, r) => (
                <Link to={pathFor(role, 'caseDetails', { id: r.uid })} data-testid={`case-link-${r.subject}`} className="nowrap">
                  {r.case_number}
                </Link>
              ),
            },
            { title: t('fields.status'), key: 'status', render: (_, r) => <StatusTag status={r.status} /> },
            { title: t('fields.subject'), dataIndex: 'subject', key: 'subject' },
            { title: t('fields.customer'), dataIndex: 'customer_name', key: 'customer' },
            { title: t('fields.type'), key: 'type', render: (_, r) => (r.type ? namedIn(r.type, i18n.language) : '–') },
            { title: t('fields.lawyer'), key: 'lawyer', render: (_, r) => r.lawyer_name ?? '–' },
            {
              title: t('fields.created_at'),
              key: 'created',
              render: (_, r) => <span className="nowrap">{formatDateTime(r.created_at)}</span>,
            },
            {
              title: t('fields.deadline'),
              key: 'deadline',
              render: (_, r) => <span className="nowrap">{r.deadline ? formatDate(r.deadline) : '–'}</span>,
            },
          ]}
        />
        <CursorPager list={list as never} testId="cases-pager" />
      </Card>
    </div>
  );
}
