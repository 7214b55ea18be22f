/**
 * customer/manage/package/:customer_uid (admin and sales): the customer's
 * subscriptions table, add a package or service plan, and (admin only) a
 * custom package with hours and price.
 */
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { useList, useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { addToCustomer, customerServices, listPackages, listServicePlans } from '../../api/subscriptions';
import type { Package, PurchasedService, ServicePlan } from '../../types/subscriptions';
import { GUTTER } from '../../config/constants';
import { DAYS_MAX, DAYS_MIN, HOURS_MIN } from '../../validation/bounds';
import { useSession } from '../../store/session';
import CustomerSubscriptionsTable from './CustomerSubscriptionsTable';
import { formatHours, formatSek, parseHours } from './format';
import { useFeedback } from '../../layout/feedback';
import { customerDetails } from '../../api/customerAdmin';
import { customerLabel } from '../../components/CustomerSelect';
import PageTitle from '../../components/PageTitle';

export default function ManageCustomerPackages({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('subscriptions');
  const { message, modal } = useFeedback();
  const { customer_uid: uid = '' } = useParams();
  const isAdmin = !!useSession((s) => s.user?.is_staff);
  const [pkg, setPkg] = useState<number | null>(null);
  const [plan, setPlan] = useState<number | null>(null);
  const [customForm] = Form.useForm();
  /** Whose packages these are: named in the heading and in every confirmation. */
  const customer = useLoad(async () => customerLabel(await customerDetails(uid)), uid).data ?? '';

  const services = useList<PurchasedService>(async () => (await customerServices(uid)).purchased_services, uid);
  const rows = services.rows ?? [];
  const loading = services.loading;
  const reload = () => void services.reload();
  // A retired entry is sold to nobody (the server refuses it too).
  const packages = useList<Package>(async () => (await listPackages()).filter((p) => !p.retired)).rows ?? [];
  const plans = useList<ServicePlan>(async () => (await listServicePlans()).filter((p) => !p.retired)).rows ?? [];

  /** A purchase for the customer only after a yes that names what, for whom and at what price. */
  const confirmAdd = (name: string, price: number | null, body: Record<string, unknown>) =>
    modal.confirm({
      title: t('manage.confirm', { name, customer: customer || t('manage.thisCustomer'), price: price == null ? '–' : formatSek(price) }),
      okText: t('confirm.yes'),
      cancelText: t('confirm.no'),
      okButtonProps: { 'data-testid': 'manage-confirm-yes' } as Record<string, string>,
      onOk: async () => {
        if ((await add(body)) && body.custom) customForm.resetFields();
      },
    });

  const add = async (body: Record<string, unknown>) => {
    try {
      await addToCustomer({ customer_uid: uid, ...body });
      void message.success(t('messages.added'));
      reload();
      return true;
    } catch {
      return false;
    }
  };

  return (
    <div className="page" data-testid="manage-packages-page">
      <PageTitle titleKey={titleKey} />
      {customer && (
        <Typography.Title level={4} className="page-subtitle" data-testid="manage-customer-name">
          {t('manage.for', { customer })}
        </Typography.Title>
      )}
      <Row gutter={[GUTTER, GUTTER]}>
        <Col span={24}>
          <Card title={t('title')}>
            <CustomerSubscriptionsTable rows={rows} loading={loading} onChanged={reload} />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t('manage.addPackage')}>
            <Select<number>
              style={{ width: '100%' }}
              placeholder={t('manage.choose')}
              data-testid="manage-package-select"
              value={pkg ?? undefined}
              onChange={setPkg}
              options={packages.map((p) => ({ value: p.id, label: `${p.name} · ${formatHours(p.hours)} h · ${formatSek(p.price)}` }))}
            />
            <Button type="primary" style={{ marginTop: 12 }} disabled={pkg == null} data-testid="manage-package-add" onClick={() => {
                const p = packages.find((x) => x.id === pkg);
                if (p) confirmAdd(p.name, p.price, { package_id: pkg });
              }}>
              {t('manage.add')}
            </Button>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t('manage.addPlan')}>
            <Select<number>
              style={{ width: '100%' }}
              placeholder={t('manage.choose')}
              value={plan ?? undefined}
              onChange={setPlan}
              options={plans.map((p) => ({ value: p.id, label: `${p.name} · ${formatSek(p.price)}` }))}
            />
            <Button
              type="primary"
              style={{ marginTop: 12 }}
              disabled={plan == null}
              data-testid="manage-plan-add"
              onClick={() => {
                const p = plans.find((x) => x.id === plan);
                if (p) confirmAdd(p.name, p.price, { service_plan_id: plan });
              }}
            >
              {t('manage.add')}
            </Button>
          </Card>
        </Col>
        {isAdmin && (
          <Col xs={24} lg={8}>
            <Card title={t('manage.custom')}>
              <Form
                form={customForm}
                layout="vertical"
                initialValues={{ duration_days: 30 }}
                onFinish={async (v: { name: string; hours: string; price: number; duration_days: number }) => {
                  confirmAdd(v.name || t('manage.custom'), v.price, { custom: true, name: v.name ?? '', hours: v.hours, price: v.price, duration_days: v.duration_days });
                }}
              >
                <Form.Item name="name" label={t('manage.name')}>
                  <Input />
                </Form.Item>
                <Form.Item
                  name="hours"
                  label={t('manage.hours')}
                  rules={[
                    { required: true, message: t('change.hoursRequired') },
                    {
                      validator: async (_, v: string) => {
                        if (!v) return;
                        const n = parseHours(v);
                        if (n == null || n < HOURS_MIN) throw new Error(t('change.hoursMin', { min: formatHours(HOURS_MIN) }));
                      },
                    },
                  ]}
                >
                  <Input inputMode="decimal" />
                </Form.Item>
                <Form.Item name="price" label={t('manage.price')} rules={[{ required: true }]}>
                  <InputNumber min={HOURS_MIN} decimalSeparator="," style={{ width: '100%' }} />
                </Form.Item>
                <Form.Item name="duration_days" label={t('manage.days')} rules={[{ required: true }]}>
                  <InputNumber min={DAYS_MIN} max={DAYS_MAX} precision={0} style={{ width: '100%' }} />
                </Form.Item>
                <Button type="primary" htmlType="submit">
                  {t('manage.add')}
                </Button>
              </Form>
            </Card>
          </Col>
        )}
      </Row>
    </div>
  );
}
