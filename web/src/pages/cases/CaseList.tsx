import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listCases } from '../../api/cases';
import type { Case } from '../../types/cases';
import { useCursorList } from '../../api/paging';
import CursorPager from '../../components/CursorPager';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { listKindOf } from './caseRules';
import { caseStatusChip } from './status';

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation('cases');
  const chip = caseStatusChip(status);
  return (
    <Tag color={chip.color} data-testid="case-status">
      {t(chip.labelKey)}
    </Tag>
  );
}

/** A case list (my cases, pending, draft, available, closed): 10 at a time, newest first. */
export default function CaseList({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('cases');
  const role = useAreaRole();
  const kind = listKindOf(titleKey);
  const list = useCursorList<Case>((cursor) => listCases(kind, cursor), kind);
  return (
    <div className="page" data-testid="cases-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={2} data-testid="page-title">
          {t(titleKey, { ns: 'routes' })}
        </Typography.Title>
        <Link to={pathFor(role, 'caseCreate')}>
          <Button type="primary" icon={<PlusOutlined />} data-testid="case-create">
            {t('list.create')}
          </Button>
        </Link>
      </Space>
      <Card>
        <Table<Case>
          rowKey="uid"
          data-testid="cases-table"
          loading={list.loading}
          dataSource={list.rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('list.empty') }}
          columns={[
            {
              title: t('fields.case_number'),
              key: 'case_number',
              render: (_, r) => (
                <Link to={pathFor(role, 'caseDetails', { id: r.uid })} data-testid={`case-link-${r.subject}`}>
                  {r.case_number}
                </Link>
              ),
            },
            { title: t('fields.subject'), dataIndex: 'subject', key: 'subject' },
            { title: t('fields.customer'), dataIndex: 'customer_name', key: 'customer' },
            { title: t('fields.type'), key: 'type', render: (_, r) => r.type.name },
            { title: t('fields.lawyer'), key: 'lawyer', render: (_, r) => r.lawyer_name ?? '–' },
            { title: t('fields.status'), key: 'status', render: (_, r) => <StatusTag status={r.status} /> },
            { title: t('fields.created_at'), key: 'created', render: (_, r) => dayjs(r.created_at).format('YYYY-MM-DD HH:mm') },
          ]}
        />
        <CursorPager list={list as never} testId="cases-pager" />
      </Card>
    </div>
  );
}
