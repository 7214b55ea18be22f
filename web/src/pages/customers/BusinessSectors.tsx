import { Button, Card, Empty, Form, Input, Popconfirm, Space, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { sectorName } from '../../components/names';
import { useEffect, useState } from 'react';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { createBusinessSector, deleteBusinessSector, fetchBusinessSectors, updateBusinessSector } from '../../api/customers';
import type { BusinessSector } from '../../types/customers';
import { applyServerErrors } from '../../api/formErrors';
import MessageAlert from '../../components/MessageAlert';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';

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
        <Typography.Title level={2} data-testid="page-title">
          {t(titleKey, { ns: 'routes' })}
        </Typography.Title>
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
                  <Popconfirm title={t('deleteSectorConfirm')} okText={t('yes')} cancelText={t('no')} onConfirm={() => remove(r.id)}>
                    <Button type="link" danger data-testid={`sector-delete-${r.id}`}>
                      {t('delete')}
                    </Button>
                  </Popconfirm>
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
  const [error, setError] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    if (!id) return;
    fetchBusinessSectors()
      .then((all) => {
        const found = all.find((s) => s.id === id);
        if (found) form.setFieldsValue({ name: found.name });
        else setMissing(true);
      })
      .catch(() => {});
  }, [id, form]);

  const onFinish = async ({ name }: { name: string }) => {
    setSaving(true);
    setError(null);
    try {
      if (id) await updateBusinessSector(id, name);
      else await createBusinessSector(name);
      void message.success(t(id ? 'sectorUpdated' : 'sectorCreated'));
      navigate(list);
    } catch (err) {
      setError(applyServerErrors(form, err, ['name']));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="page" data-testid="business-sector-form-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <Card style={{ maxWidth: 520 }}>
        {missing ? (
          <Empty description={t('sectorMissing')} />
        ) : (
          <>
            <MessageAlert messages={error} testId="sector-error" />
            <Form form={form} layout="vertical" onFinish={onFinish} disabled={saving} requiredMark={false} data-testid="sector-form">
              <Form.Item
                label={t('sectorName')}
                name="name"
                rules={[
                  { required: true, whitespace: true, message: t('required', { ns: 'server' }) },
                  { max: 100, message: t('too_long', { ns: 'server' }) },
                ]}
              >
                <Input data-testid="sector-name" />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" loading={saving} data-testid="sector-save">
                  {t('save')}
                </Button>
                <Link to={list}>
                  <Button>{t('cancel')}</Button>
                </Link>
              </Space>
            </Form>
          </>
        )}
      </Card>
    </div>
  );
}
