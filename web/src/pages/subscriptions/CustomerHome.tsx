/**
 * The customer's (and contact's) dashboard: the welcome card, the customer's
 * subscriptions and, for the customer, the public packages and service plans
 * to buy.
 */
import { Button, Col, Row, Space } from 'antd';
import { PlainCard, PlainList, PlainListItem, PlainListMeta } from '../../components/PlainCard';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buyPackage, buyServicePlan, listPackages, listServicePlans } from '../../api/subscriptions';
import type { Package, ServicePlan } from '../../types/subscriptions';
import { GUTTER } from '../../config/constants';
import { useSession } from '../../store/session';
import Dashboard from '../Dashboard';
import { TableSkeleton } from '../../components/Skeletons';
import { customerUidOf, loadCustomerServices } from './customerServices';
import { formatHours, formatSek } from './format';
import { useFeedback } from '../../layout/feedback';

// The subscriptions table (antd Table, date pickers) loads after the dashboard shows, its rows' skeleton in
// its place meanwhile: the dashboard's first paint stays lighter (web/src/budget.test.ts).
const CustomerSubscriptionsTable = lazy(() => import('./CustomerSubscriptionsTable'));

export default function CustomerHome({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('subscriptions');
  const { message, modal } = useFeedback();
  const user = useSession((s) => s.user);
  const rows = useSession((s) => s.services.purchased_services) ?? [];
  const uid = customerUidOf(user);
  const isCustomer = Number(user?.user_type) === 3;
  const [packages, setPackages] = useState<Package[]>([]);
  const [plans, setPlans] = useState<ServicePlan[]>([]);
  // Bumped after a purchase: the dashboard's figures (hours left) are read again.
  const [bought, setBought] = useState(0);

  const reload = useCallback(() => {
    if (uid) void loadCustomerServices(uid).catch(() => undefined);
  }, [uid]);

  useEffect(() => {
    reload();
    if (isCustomer) {
      listPackages().then(setPackages, () => undefined);
      listServicePlans().then(setPlans, () => undefined);
    }
  }, [reload, isCustomer]);

  const buy = (name: string, price: number, call: () => Promise<unknown>) =>
    modal.confirm({
      title: t('buy.confirm', { name, price: formatSek(price) }),
      okText: t('confirm.yes'),
      cancelText: t('confirm.no'),
      okButtonProps: { 'data-testid': 'buy-confirm-yes' } as Record<string, string>,
      onOk: async () => {
        try {
          await call();
          void message.success(t('messages.bought'));
          reload();
          setBought((n) => n + 1);
        } catch {
          /* notified by the client */
        }
      },
    });

  return (
    <>
      <Dashboard titleKey={titleKey} refresh={bought} />
      <Row gutter={[GUTTER, GUTTER]} style={{ marginTop: GUTTER }}>
        <Col span={24}>
          <PlainCard title={t('title')}>
            <Suspense fallback={<TableSkeleton header rows={Math.max(1, Math.min(rows.length, 5))} />}>
              <CustomerSubscriptionsTable rows={rows} onChanged={reload} />
            </Suspense>
          </PlainCard>
        </Col>
        {isCustomer && (
          <>
            <Col xs={24} lg={12}>
              <PlainCard title={t('buy.packages')}>
                <PlainList items={packages}
                  empty={t('buy.none')}
                  render={(p) => (
                    <PlainListItem
                      data-testid={`buy-package-item-${p.id}`}
                      actions={[
                        <Button key="buy" type="primary" data-testid={`buy-package-${p.id}`} onClick={() => buy(p.name, p.price, () => buyPackage(p.id))}>
                          {t('buy.buy')}
                        </Button>,
                      ]}
                    >
                      <PlainListMeta
                        title={p.name}
                        description={
                          <Space split="·" wrap>
                            <span>{t('buy.hours', { hours: formatHours(p.hours) })}</span>
                            <span>{t('buy.days', { days: p.duration_days })}</span>
                            <span className="plain-text" style={{ whiteSpace: 'nowrap' }}>
                              <strong>{formatSek(p.price)}</strong>
                            </span>
                          </Space>
                        }
                      />
                    </PlainListItem>
                  )}
                />
              </PlainCard>
            </Col>
            <Col xs={24} lg={12}>
              <PlainCard title={t('buy.plans')}>
                <PlainList items={plans}
                  empty={t('buy.none')}
                  render={(p) => (
                    <PlainListItem
                      actions={[
                        <Button key="buy" type="primary" data-testid={`buy-plan-${p.id}`} onClick={() => buy(p.name, p.price, () => buyServicePlan(p.id))}>
                          {t('buy.buy')}
                        </Button>,
                      ]}
                    >
                      <PlainListMeta
                        title={p.name}
                        description={
                          <Space split="·" wrap>
                            <span>{p.hours != null ? t('buy.hours', { hours: formatHours(p.hours) }) : t('buy.limit', { limit: p.limit })}</span>
                            <span>{t('buy.days', { days: p.expiry_days })}</span>
                            <span className="plain-text" style={{ whiteSpace: 'nowrap' }}>
                              <strong>{formatSek(p.price)}</strong>
                            </span>
                          </Space>
                        }
                      />
                    </PlainListItem>
                  )}
                />
              </PlainCard>
            </Col>
          </>
        )}
      </Row>
    </>
  );
}
