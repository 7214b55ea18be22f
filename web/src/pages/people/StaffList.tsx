import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Segmented, Space, Tag } from 'antd';
import Table from '../../components/ResponsiveTable';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import Link from '../../components/Link';
import { activateUser, deactivateUser } from '../../api/customers';
import { listStaff, sendStaffPasswordLink } from '../../api/people';
import type { LawyerKind, StaffProfile, StaffRole } from '../../types/people';
import { translateServerMessage } from '../../i18n';
import { useCursorList } from '../../api/paging';
import ListEmpty from '../../components/ListEmpty';
import CursorPager from '../../components/CursorPager';
import { formatOre } from '../../format';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { RatingSummary } from '../../components/collaboration/RatingSummary';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';

export interface StaffListProps {
  titleKey: string;
  role: StaffRole;
  kind?: LawyerKind;
}

/** Where the admin edits a row (spec §2 admin routes). */
export function staffEditPath(role: StaffRole, uid: string): string {
  return role === 'lawyer' ? pathFor('admin', 'lawyerUpdate', { lawyer_uid: uid }) : pathFor('admin', 'salesPersonUpdate', { salesPerson_id: uid });
}

/** Admin lists: lawyers (internal or external) and sales persons, 10 per page, newest first. */
export function StaffList({ titleKey, role, kind }: StaffListProps) {
  const { t } = useTranslation('people');
  const navigate = useNavigate();
  const { message } = useFeedback();
  const list = useCursorList((cursor) => listStaff(role, { kind, cursor }), `${role}:${kind ?? ''}`);
  const area = useAreaRole();
  const createPath = pathFor(area, role === 'lawyer' ? 'lawyerCreate' : 'salesPersonCreate');

  const columns: ColumnsType<StaffProfile> = [
    {
      title: t('name'),
      key: 'name',
      render: (_, r) => (
        <Link to={staffEditPath(role, r.uid)} data-testid="staff-row-name">
          {r.first_name} {r.last_name}
        </Link>
      ),
    },
    { title: t('email'), dataIndex: 'email', key: 'email' },
  ];
  if (role === 'lawyer' && kind === 'external') {
    columns.push(
      { title: t('companyName'), key: 'company', render: (_, r) => r.lawyer?.company_name ?? '' },
      {
        title: t('hourlyRate'),
        key: 'rate',
        render: (_, r) => (r.lawyer?.hourly_rate_ore != null ? formatOre(r.lawyer.hourly_rate_ore) : ''),
      },
    );
  }
  if (role === 'lawyer') {
    columns.push({
      title: t('ratings.column', { ns: 'collaboration' }),
      key: 'rating',
      render: (_, r) => <RatingSummary average={r.rating_average} count={r.rating_count ?? 0} testId="staff-row-rating" />,
    });
  }
  columns.push(
    {
      title: t('status'),
      key: 'status',
      render: (_, r) => (
        <Tag color={r.active ? 'green' : 'default'} data-testid="staff-row-status">
          {r.active ? t('active') : t('inactive')}
        </Tag>
      ),
    },
    {
      title: t('actions'),
      key: 'actions',
      render: (_, r) => (
        <Space wrap>
          <Popconfirm
            title={r.active ? t('confirmDeactivate') : t('confirmActivate')}
            okText={t('yes')}
            cancelText={t('no')}
            onConfirm={async () => {
              // Deactivation ends the person's sessions at once (server side).
              await (r.active ? deactivateUser(r.uid) : activateUser(r.uid));
              list.reload();
            }}
          >
            <Button size="small" danger={r.active} data-testid="staff-toggle-active">
              {r.active ? t('deactivate') : t('activate')}
            </Button>
          </Popconfirm>
          <Button
            size="small"
            data-testid="staff-send-link"
            onClick={async () => {
              const res = await sendStaffPasswordLink(r.uid);
              void message.success(translateServerMessage(res.message));
            }}
          >
            {t('sendPasswordLink')}
          </Button>
        </Space>
      ),
    },
  );

  return (
    <div className="page" data-testid="staff-list-page">
      <Space className="page-header" style={{ justifyContent: 'space-between', width: '100%' }}>
        <PageTitle titleKey={titleKey} />
        <Link to={createPath}>
          <Button type="primary" icon={<PlusOutlined />} data-testid="staff-create">
            {role === 'lawyer' ? t('createLawyer') : t('createSalesPerson')}
          </Button>
        </Link>
      </Space>
      <Card>
        {role === 'lawyer' && (
          <Segmented
            data-testid="lawyer-kind"
            style={{ marginBottom: 16 }}
            value={kind ?? 'internal'}
            options={[
              { value: 'internal', label: t('internal') },
              { value: 'external', label: t('external') },
            ]}
            onChange={(v) => navigate(pathFor(area, v === 'external' ? 'lawyersExternal' : 'lawyers'))}
          />
        )}
        <Table<StaffProfile>
          rowKey="uid"
          data-testid="staff-table"
          columns={columns}
          dataSource={list.rows}
          loading={list.loading && list.rows.length > 0}
          pagination={false}
          locale={{ emptyText: list.loading ? <TableSkeleton /> : <ListEmpty error={list.error} onRetry={list.reload} /> }}
        />
        <CursorPager list={list} />
      </Card>
    </div>
  );
}

export function InternalLawyers({ titleKey }: { titleKey: string }) {
  return <StaffList titleKey={titleKey} role="lawyer" kind="internal" />;
}
export function ExternalLawyers({ titleKey }: { titleKey: string }) {
  return <StaffList titleKey={titleKey} role="lawyer" kind="external" />;
}
export function SalesPersons({ titleKey }: { titleKey: string }) {
  return <StaffList titleKey={titleKey} role="sales_person" />;
}
