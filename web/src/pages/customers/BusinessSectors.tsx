import { Button, Card, Empty, Form, Input, Space } from 'antd';
import Table from '../../components/ResponsiveTable';
import { sectorName } from '../../components/names';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import Link from '../../components/Link';
import { createBusinessSector, deleteBusinessSector, fetchBusinessSectors, updateBusinessSector } from '../../api/customers';
import type { BusinessSector } from '../../types/customers';
import VerticalForm from '../../components/VerticalForm';
import { FormPage, useFormPage, useFormRecord } from '../../components/FormPage';
import { SECTOR_NAME_MAX_CHARS } from '../../validation/bounds';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';
import ConfirmDelete from '../../components/ConfirmDelete';

const FIELDS = ['name'] as const;

/** Admin: the business sectors (spec §2 customers/business-sector/). */
export default function BusinessSectors({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('customers');
  const role = useAreaRole();
  const { message } = useFeedback();
  const { rows: loaded, loading, reload } = useList(fetchBusinessSectors);
  const rows = loaded ?? [];

  const remove = async (id: string) => {
    try {
      await deleteBusinessSector(id);
      void message.success(t('sectorDeleted'));
      await reload();
    } catch {
      /* shown by the API client */
    }
  };

  return (
    <div className="page" data-testid="business-sectors">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <PageTitle titleKey={titleKey} />
        <Link to={pathFor(role, 'businessSectorCreate')}>
          <Button type="primary" data-testid="sector-add">
            {t('addSector')}
          </Button>
        </Link>
      </Space>
      <Card>
        <Table<BusinessSector>
          rowKey="id"
          loading={loading && rows.length > 0}
          dataSource={rows}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: loading ? <TableSkeleton /> : <Empty description={t('empty')} /> }}
          columns={[
            { title: t('sectorName'), key: 'name', render: (_, r) => sectorName(r.name) },
            {
              title: t('actions'),
              key: 'actions',
              render: (_, r) => (
                <Space>
                  <Link to={pathFor(role, 'businessSectorUpdate', { id: r.id })} data-testid={`sector-edit-${r.id}`}>
                    {t('edit')}
                  </Link>
                  <ConfirmDelete ns="customers" title={t('deleteSectorConfirm')} onConfirm={() => remove(r.id)} type="link" data-testid={`sector-delete-${r.id}`} />
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}

/** Admin: create (no :id) or rename (update/:id) a business sector. */
export function BusinessSectorForm({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('customers');
  const { message } = useFeedback();
  const { id } = useParams();
  const navigate = useNavigate();
  const list = pathFor(useAreaRole(), 'businessSectors');
  const [form] = Form.useForm<{ name: string }>();
  const { submitting, errors, submit } = useFormPage(form, FIELDS);
  // The sectors are read as one list: the one renamed is found in it (`found` null: no such sector).
  const { record } = useFormRecord(
    form,
    async () => ({ found: (await fetchBusinessSectors()).find((s) => s.id === id) ?? null }),
    id ?? null,
    ({ found }) => (found ? { name: found.name } : {}),
  );
  const missing = record != null && record.found == null;

  const onFinish = ({ name }: { name: string }) =>
    submit(async () => {
      if (id) await updateBusinessSector(id, name);
      else await createBusinessSector(name);
      void message.success(t(id ? 'sectorUpdated' : 'sectorCreated'));
      navigate(list);
    });

  return (
    <FormPage titleKey={titleKey} testId="business-sector-form" errors={errors} errorTestId="sector-error">
      {missing ? (
        <Empty description={t('sectorMissing')} />
      ) : (
        <VerticalForm form={form} onFinish={onFinish} disabled={submitting} data-testid="sector-form">
          <Form.Item
            label={t('sectorName')}
            name="name"
            rules={[
              { required: true, whitespace: true, message: t('required', { ns: 'server' }) },
              { max: SECTOR_NAME_MAX_CHARS, message: t('too_long', { ns: 'server' }) },
            ]}
          >
            <Input data-testid="sector-name" />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={submitting} data-testid="sector-save">
              {t('save')}
            </Button>
            <Link to={list}>
              <Button>{t('cancel')}</Button>
            </Link>
          </Space>
        </VerticalForm>
      )}
    </FormPage>
  );
}
