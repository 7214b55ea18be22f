/**
 * Admin named lists: settings/knowledge-sectors/, settings/case-types/ and
 * customer/department/ (list, create, edit/:department_id, connect a customer).
 */
import { Button, Card, Form, Input, Select, Space, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useState } from 'react';
import { useFormRecord } from '../../components/FormPage';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import Link from '../../components/Link';
import ListEmpty from '../../components/ListEmpty';
import LinkTabs from '../../components/LinkTabs';
import { connectDepartment, createNamed, deleteNamed, getDepartment, listNamed, updateNamed, type NamedInput } from '../../api/subscriptions';
import { namedIn } from '../../format';
import { NAME_MAX_CHARS } from '../../validation/bounds';
import type { NamedEntry, NamedListKind } from '../../types/subscriptions';
import { applyFieldErrors } from './fieldErrors';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';
import CatalogueFormPage from './CatalogueFormPage';
import ConfirmDelete from '../../components/ConfirmDelete';

/**
 * A delete after its yes: "deleted" when it worked, the list read again either way (a refusal, e.g. a
 * department with customers, is said by the client's §8 notification).
 */
function useRemove(reload: () => Promise<void>) {
  const { t } = useTranslation('catalogue');
  const { message } = useFeedback();
  return async (call: () => Promise<unknown>) => {
    try {
      await call();
      void message.success(t('deleted'));
    } catch {
      /* the client's notification says why */
    }
    void reload();
  };
}

/** Settings → knowledge sectors and case types (the spec hides case types from the menu): one tab each. */
function SettingsTabs() {
  const { t } = useTranslation('routes');
  const role = useAreaRole();
  const { pathname } = useLocation();
  const tabs = (['knowledgeSectors', 'caseTypes'] as const).map((id) => ({ id, to: pathFor(role, id) }));
  const active = tabs.find((x) => x.to.replace(/\/$/, '') === pathname.replace(/\/$/, ''))?.id;
  return (
    <LinkTabs
      active={active}
      testId="settings-tabs"
      items={tabs.map((x) => ({ key: x.id, to: x.to, testId: `settings-tab-${x.id}`, label: t(x.id) }))}
    />
  );
}

/** A list with inline create, rename and delete (knowledge sectors, case types). */
function NamedListPage({ kind, titleKey }: { kind: NamedListKind; titleKey: string }) {
  const { t } = useTranslation('catalogue');
  const { message } = useFeedback();
  const [editing, setEditing] = useState<number | null>(null);
  const [form] = Form.useForm();
  const [editForm] = Form.useForm();
  const { rows, error, reload } = useList(() => listNamed(kind), kind);
  const remove = useRemove(reload);
  return (
    <div className="page" data-testid={`named-list-${kind}`}>
      <PageTitle titleKey={titleKey} />
      <Card>
        <SettingsTabs />
        <Form
          form={form}
          layout="inline"
          onFinish={async (v: NamedInput) => {
            try {
              await createNamed(kind, v);
              form.resetFields();
              void message.success(t('saved'));
              void reload();
            } catch (e) {
              applyFieldErrors(form, e);
            }
          }}
        >
          <Form.Item name="name" rules={[{ required: true, message: t('required') }]}>
            <Input placeholder={t('fields.name_sv')} aria-label={t('fields.name_sv')} maxLength={NAME_MAX_CHARS} data-testid="named-new-name" />
          </Form.Item>
          <Form.Item name="name_en" tooltip={t('fields.name_en_help')}>
            <Input placeholder={t('fields.name_en')} aria-label={t('fields.name_en')} maxLength={NAME_MAX_CHARS} data-testid="named-new-name-en" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="named-add">
            {t('add')}
          </Button>
        </Form>
        <Table<NamedEntry>
          style={{ marginTop: 16 }}
          rowKey="id"
          dataSource={rows ?? []}
          pagination={false}
          locale={{ emptyText: rows == null ? <TableSkeleton /> : <ListEmpty error={error} onRetry={() => void reload()} /> }}
          columns={[
            {
              title: `${t('fields.name_sv')} / ${t('fields.name_en')}`,
              render: (_, r) =>
                editing === r.id ? (
                  <Form
                    form={editForm}
                    layout="inline"
                    initialValues={{ name: r.name, name_en: r.name_en ?? '' }}
                    onFinish={async (v: NamedInput) => {
                      try {
                        await updateNamed(kind, r.id, { ...v, description: r.description });
                        setEditing(null);
                        void message.success(t('saved'));
                        void reload();
                      } catch (e) {
                        applyFieldErrors(editForm, e);
                      }
                    }}
                  >
                    <Form.Item name="name" rules={[{ required: true, message: t('required') }]}>
                      <Input aria-label={t('fields.name_sv')} maxLength={NAME_MAX_CHARS} data-testid="named-edit-name" />
                    </Form.Item>
                    <Form.Item name="name_en">
                      <Input aria-label={t('fields.name_en')} placeholder={t('fields.name_en')} maxLength={NAME_MAX_CHARS} data-testid="named-edit-name-en" />
                    </Form.Item>
                    <Button htmlType="submit" data-testid="named-save">{t('save')}</Button>
                  </Form>
                ) : (
                  <Space orientation="vertical" size={0}>
                    <span lang="sv">{r.name}</span>
                    {r.name_en && (
                      <Typography.Text type="secondary" lang="en" data-testid="named-name-en">
                        {r.name_en}
                      </Typography.Text>
                    )}
                  </Space>
                ),
            },
            {
              title: t('actions'),
              render: (_, r) => (
                <Space>
                  <Button size="small" onClick={() => { editForm.resetFields(); setEditing(r.id); }}>
                    {t('edit')}
                  </Button>
                  <ConfirmDelete ns="catalogue" title={t('confirmDelete')} onConfirm={() => remove(() => deleteNamed(kind, r.id))} size="small" />
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}

export const KnowledgeSectorsPage = ({ titleKey }: { titleKey: string }) => <NamedListPage kind="knowledge" titleKey={titleKey} />;
export const CaseTypesPage = ({ titleKey }: { titleKey: string }) => <NamedListPage kind="caseTypes" titleKey={titleKey} />;

export function DepartmentsPage({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('catalogue');
  const role = useAreaRole();
  const { rows, reload } = useList(() => listNamed('departments'));
  const remove = useRemove(reload);
  return (
    <div className="page" data-testid="departments-page">
      <PageTitle titleKey={titleKey} />
      <Card extra={<Link to={pathFor(role, 'departmentCreate')}><Button type="primary">{t('departments.create')}</Button></Link>}>
        <Table<NamedEntry>
          rowKey="id"
          dataSource={rows ?? []}
          locale={{ emptyText: rows == null ? <TableSkeleton /> : undefined }}
          pagination={false}
          onRow={(r) => ({ 'data-testid': `department-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('fields.name'), render: (_, r) => namedIn(r, i18n.language) },
            { title: t('fields.description'), dataIndex: 'description' },
            {
              title: t('actions'),
              render: (_, r) => (
                <Space wrap>
                  <Link to={pathFor(role, 'departmentEdit', { department_id: r.id })} data-testid={`department-edit-${r.id}`}>
                    <Button size="small">{t('edit')}</Button>
                  </Link>
                  {/* One with customers is refused by the server (department_in_use), said in the §8 notification. */}
                  <ConfirmDelete
                    ns="catalogue"
                    title={t('departments.confirmDelete', { name: namedIn(r, i18n.language) })}
                    yesTestId="department-delete-yes"
                    onConfirm={() => remove(() => deleteNamed('departments', r.id))}
                    size="small"
                    data-testid={`department-delete-${r.id}`}
                  />
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}

/** Create (no :department_id) or edit a department. */
export function DepartmentFormPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('catalogue');
  const { department_id } = useParams();
  const role = useAreaRole();
  const [form] = Form.useForm();
  useFormRecord(form, () => getDepartment(department_id!), department_id ?? null, (d) => d);
  return (
    <CatalogueFormPage<NamedInput>
      titleKey={titleKey}
      form={form}
      save={(v) => (department_id ? updateNamed('departments', Number(department_id), v) : createNamed('departments', v))}
      done="saved"
      back={pathFor(role, 'departments')}
    >
      <Form.Item name="name" label={t('fields.name_sv')} rules={[{ required: true, message: t('required') }]}>
        <Input maxLength={NAME_MAX_CHARS} />
      </Form.Item>
      <Form.Item name="name_en" label={t('fields.name_en')} extra={t('fields.name_en_help')}>
        <Input maxLength={NAME_MAX_CHARS} />
      </Form.Item>
      <Form.Item name="description" label={t('fields.description')}>
        <Input.TextArea rows={3} />
      </Form.Item>
    </CatalogueFormPage>
  );
}

/** Connect the customer :customer_uid to a department. */
export function DepartmentConnectPage({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('catalogue');
  const { message } = useFeedback();
  const { customer_uid = '' } = useParams();
  const rows = useList(() => listNamed('departments')).rows ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  return (
    <div className="page">
      <PageTitle titleKey={titleKey} />
      <Card>
        <Space>
          <Select<number> style={{ minWidth: 240 }} placeholder={t('departments.choose')} value={chosen ?? undefined} onChange={setChosen} options={rows.map((d) => ({ value: d.id, label: namedIn(d, i18n.language) }))} />
          <Button
            type="primary"
            disabled={chosen == null}
            onClick={async () => {
              try {
                await connectDepartment(customer_uid, chosen!);
                void message.success(t('departments.connected'));
              } catch {
                /* notified by the client */
              }
            }}
          >
            {t('departments.connect')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}
