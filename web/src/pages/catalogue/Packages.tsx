/** settings/packages/ and settings/service-plans/ (admin): lists and create forms. */
import { Button, Card, Form, Input, InputNumber, Select, Switch, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { serviceName } from '../../components/names';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { applyFieldErrors } from './fieldErrors';
import { createPackage, createServicePlan, listPackages, listServicePlans, listServices } from '../../api/subscriptions';
import type { Package, Service, ServicePlan } from '../../types/subscriptions';
import { formatHours, formatSek } from '../subscriptions/format';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { TableSkeleton } from '../../components/Skeletons';
import { useFeedback } from '../../layout/feedback';

function Title({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('routes');
  return (
    <Typography.Title level={2} data-testid="page-title">
      {t(titleKey)}
    </Typography.Title>
  );
}

export function PackagesPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('catalogue');
  const role = useAreaRole();
  const [rows, setRows] = useState<Package[] | null>(null);
  useEffect(() => {
    listPackages().then(setRows, () => setRows([]));
  }, []);
  return (
    <div className="page" data-testid="packages-page">
      <Title titleKey={titleKey} />
      <Card extra={<Link to={pathFor(role, 'packageCreate')} data-testid="package-create-link"><Button type="primary">{t('packages.create')}</Button></Link>}>
        <Table<Package>
          rowKey="id"
          dataSource={rows ?? []}
          locale={{ emptyText: rows == null ? <TableSkeleton /> : undefined }}
          pagination={false}
          onRow={(r) => ({ 'data-testid': `package-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('fields.name'), dataIndex: 'name' },
            { title: t('fields.hours'), render: (_, r) => formatHours(r.hours) },
            { title: t('fields.price'), render: (_, r) => formatSek(r.price) },
            { title: t('fields.durationDays'), dataIndex: 'duration_days' },
            { title: t('fields.public'), render: (_, r) => (r.public ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>) },
          ]}
        />
      </Card>
    </div>
  );
}

export function PackageCreatePage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('catalogue');
  const { message } = useFeedback();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const role = useAreaRole();
  return (
    <div className="page">
      <Title titleKey={titleKey} />
      <Card>
        <Form
          form={form}
          layout="vertical"
          data-testid="package-form"
          // Not public until admin says so: an entry made by mistake does not reach the landing page or customers.
          initialValues={{ public: false, duration_days: 365 }}
          onFinish={async (v) => {
            try {
              await createPackage(v);
              void message.success(t('packages.created'));
              navigate(pathFor(role, 'packages'));
            } catch (e) {
              applyFieldErrors(form, e);
            }
          }}
        >
          <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, message: t('required') }]}>
            <Input data-testid="package-name" />
          </Form.Item>
          <Form.Item name="hours" label={t('fields.hours')} rules={[{ required: true, message: t('required') }]}>
            <Input inputMode="decimal" data-testid="package-hours" />
          </Form.Item>
          <Form.Item name="price" label={t('fields.price')} rules={[{ required: true, message: t('required') }]}>
            <Input inputMode="decimal" data-testid="package-price" />
          </Form.Item>
          <Form.Item name="duration_days" label={t('fields.durationDays')} rules={[{ required: true, message: t('required') }]}>
            <InputNumber min={1} max={3650} precision={0} data-testid="package-days" />
          </Form.Item>
          <Form.Item name="public" label={t('fields.public')} valuePropName="checked">
            <Switch data-testid="package-public" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="package-submit">
            {t('save')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

export function ServicePlansPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('catalogue');
  const role = useAreaRole();
  const [rows, setRows] = useState<ServicePlan[] | null>(null);
  const [services, setServices] = useState<Service[]>([]);
  useEffect(() => {
    listServicePlans().then(setRows, () => setRows([]));
    listServices().then(setServices, () => undefined);
  }, []);
  return (
    <div className="page" data-testid="service-plans-page">
      <Title titleKey={titleKey} />
      <Card extra={<Link to={pathFor(role, 'servicePlanCreate')}><Button type="primary">{t('plans.create')}</Button></Link>}>
        <Table<ServicePlan>
          rowKey="id"
          dataSource={rows ?? []}
          locale={{ emptyText: rows == null ? <TableSkeleton /> : undefined }}
          pagination={false}
          columns={[
            { title: t('fields.name'), dataIndex: 'name' },
            { title: t('fields.service'), render: (_, r) => serviceName(r.service_id, services.find((s) => s.id === r.service_id)?.name) },
            { title: t('fields.limitOrHours'), render: (_, r) => (r.hours != null ? `${formatHours(r.hours)} h` : r.limit) },
            { title: t('fields.price'), render: (_, r) => formatSek(r.price) },
            { title: t('fields.expiryDays'), dataIndex: 'expiry_days' },
            { title: t('fields.public'), render: (_, r) => (r.public ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>) },
          ]}
        />
      </Card>
    </div>
  );
}

export function ServicePlanCreatePage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('catalogue');
  const { message } = useFeedback();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const role = useAreaRole();
  const [services, setServices] = useState<Service[]>([]);
  const serviceId = Form.useWatch('service_id', form) as number | undefined;
  useEffect(() => {
    listServices().then(setServices, () => undefined);
  }, []);
  const hourBased = services.find((s) => s.id === serviceId)?.hour_based;
  return (
    <div className="page">
      <Title titleKey={titleKey} />
      <Card>
        <Form
          form={form}
          layout="vertical"
          // Not public until admin says so (as packages).
          initialValues={{ public: false, expiry_days: 365 }}
          onFinish={async (v) => {
            try {
              await createServicePlan(v);
              void message.success(t('plans.created'));
              navigate(pathFor(role, 'servicePlans'));
            } catch (e) {
              applyFieldErrors(form, e);
            }
          }}
        >
          <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, message: t('required') }]}>
            <Input />
          </Form.Item>
          <Form.Item name="service_id" label={t('fields.service')} rules={[{ required: true, message: t('required') }]}>
            <Select options={services.map((s) => ({ value: s.id, label: serviceName(s.id, s.name) }))} />
          </Form.Item>
          {hourBased ? (
            <Form.Item name="hours" label={t('fields.hours')} rules={[{ required: true, message: t('required') }]}>
              <Input inputMode="decimal" />
            </Form.Item>
          ) : (
            <Form.Item name="limit" label={t('fields.limit')} rules={[{ required: true, message: t('required') }]}>
              <InputNumber min={1} precision={0} />
            </Form.Item>
          )}
          <Form.Item name="price" label={t('fields.price')} rules={[{ required: true, message: t('required') }]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="expiry_days" label={t('fields.expiryDays')} rules={[{ required: true, message: t('required') }]}>
            <InputNumber min={1} max={3650} precision={0} />
          </Form.Item>
          <Form.Item name="public" label={t('fields.public')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t('save')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
