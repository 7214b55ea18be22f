/**
 * The customer's (and contact's) dashboard: the welcome card, the customer's
 * subscriptions and, for the customer, the public packages and service plans
 * to buy.
 */
import { Button, Col, Row, Space } from 'antd';
import { PlainCard, PlainList, PlainListItem, PlainListMeta } from '../../components/PlainCard';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useList } from '../../api/useList';
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
  // What the customer may buy (its contacts buy nothing: nothing read).
  const packages = useList<Package>(listPackages, isCustomer ? '' : null).rows ?? [];
  const plans = useList<ServicePlan>(listServicePlans, isCustomer ? '' : null).rows ?? [];
  // Bumped after a purchase: the dashboard's figures (hours left) are read again.
  const [bought, setBought] = useState(0);

  const reload = useCallback(() => {
    if (uid) void loadCustomerServices(uid).catch(() => undefined);
  }, [uid]);

  useEffect(reload, [reload]);

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
            <OfferCard
              title={t('buy.packages')}
              items={packages.map((p) => ({ id: p.id, name: p.name, amount: t('buy.hours', { hours: formatHours(p.hours) }), days: p.duration_days, price: p.price }))}
              itemTestId="buy-package-item"
              buyTestId="buy-package"
              onBuy={(o) => buy(o.name, o.price, () => buyPackage(o.id))}
            />
            <OfferCard
              title={t('buy.plans')}
              items={plans.map((p) => ({
                id: p.id,
                name: p.name,
                amount: p.hours != null ? t('buy.hours', { hours: formatHours(p.hours) }) : t('buy.limit', { limit: p.limit }),
                days: p.expiry_days,
                price: p.price,
              }))}
              buyTestId="buy-plan"
              onBuy={(o) => buy(o.name, o.price, () => buyServicePlan(o.id))}
            />
          </>
        )}
      </Row>
    </>
  );
}

interface Offer {
  id: number;
  name: string;
  /** What it holds: hours, or a number of uses. */
  amount: string;
  days: number;
  price: number;
}

/** Packages or service plans on offer: what each holds, for how long, its price and a buy button. */
function OfferCard({ title, items, itemTestId, buyTestId, onBuy }: { title: string; items: Offer[]; itemTestId?: string; buyTestId: string; onBuy: (o: Offer) => void }) {
  const { t } = useTranslation('subscriptions');
  return (
    <Col xs={24} lg={12}>
      <PlainCard title={title}>
        <PlainList
          items={items}
          empty={t('buy.none')}
          render={(o) => (
            <PlainListItem
              data-testid={itemTestId && `${itemTestId}-${o.id}`}
              actions={[
                <Button key="buy" type="primary" data-testid={`${buyTestId}-${o.id}`} onClick={() => onBuy(o)}>
                  {t('buy.buy')}
                </Button>,
              ]}
            >
              <PlainListMeta
                title={o.name}
                description={
                  <Space split="·" wrap>
                    <span>{o.amount}</span>
                    <span>{t('buy.days', { days: o.days })}</span>
                    <span className="plain-text" style={{ whiteSpace: 'nowrap' }}>
                      <strong>{formatSek(o.price)}</strong>
                    </span>
                  </Space>
                }
              />
            </PlainListItem>
          )}
        />
      </PlainCard>
    </Col>
  );
}
