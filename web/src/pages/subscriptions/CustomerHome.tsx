/**
 * The customer's (and contact's) dashboard: the welcome card, the customer's
 * subscriptions and, for the customer, the public packages and service plans
 * to buy.
 */
import { PlainCard, PlainList, PlainListItem, PlainListMeta } from '../../components/PlainCard';
import PlainButton from '../../components/plain/PlainButton';
import { PlainCol, PlainRow } from '../../components/plain/PlainGrid';
import { themedModule } from '../../components/themed';
import { Fragment, lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
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

// The subscriptions table (antd Table, date pickers) loads after the dashboard shows, with antd's theme, its rows'
// skeleton in its place meanwhile: the dashboard itself draws no antd (an area's first page: web/src/budget.test.ts).
const CustomerSubscriptionsTable = lazy(() => themedModule(() => import('./CustomerSubscriptionsTable')));

/** antd's `<Space split="·" wrap>`: the parts on a line, a dot between them, wrapping on a narrow screen. */
function DotSeparated({ parts }: { parts: ReactNode[] }) {
  return (
    <span className="dot-separated">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <span className="dot-separated-split" aria-hidden>
              ·
            </span>
          )}
          <span>{part}</span>
        </Fragment>
      ))}
    </span>
  );
}

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
      <PlainRow gutter={[GUTTER, GUTTER]} style={{ marginTop: GUTTER }}>
        <PlainCol span={24}>
          <PlainCard title={t('title')}>
            <Suspense fallback={<TableSkeleton header rows={Math.max(1, Math.min(rows.length, 5))} />}>
              <CustomerSubscriptionsTable rows={rows} onChanged={reload} />
            </Suspense>
          </PlainCard>
        </PlainCol>
        {isCustomer && (
          <>
            <PlainCol xs={24} lg={12}>
              <PlainCard title={t('buy.packages')}>
                <PlainList items={packages}
                  empty={t('buy.none')}
                  render={(p) => (
                    <PlainListItem
                      data-testid={`buy-package-item-${p.id}`}
                      actions={[
                        <PlainButton key="buy" type="primary" data-testid={`buy-package-${p.id}`} onClick={() => buy(p.name, p.price, () => buyPackage(p.id))}>
                          {t('buy.buy')}
                        </PlainButton>,
                      ]}
                    >
                      <PlainListMeta
                        title={p.name}
                        description={
                          <DotSeparated
                            parts={[
                              t('buy.hours', { hours: formatHours(p.hours) }),
                              t('buy.days', { days: p.duration_days }),
                              <span key="price" className="plain-text" style={{ whiteSpace: 'nowrap' }}>
                                <strong>{formatSek(p.price)}</strong>
                              </span>,
                            ]}
                          />
                        }
                      />
                    </PlainListItem>
                  )}
                />
              </PlainCard>
            </PlainCol>
            <PlainCol xs={24} lg={12}>
              <PlainCard title={t('buy.plans')}>
                <PlainList items={plans}
                  empty={t('buy.none')}
                  render={(p) => (
                    <PlainListItem
                      actions={[
                        <PlainButton key="buy" type="primary" data-testid={`buy-plan-${p.id}`} onClick={() => buy(p.name, p.price, () => buyServicePlan(p.id))}>
                          {t('buy.buy')}
                        </PlainButton>,
                      ]}
                    >
                      <PlainListMeta
                        title={p.name}
                        description={
                          <DotSeparated
                            parts={[
                              p.hours != null ? t('buy.hours', { hours: formatHours(p.hours) }) : t('buy.limit', { limit: p.limit }),
                              t('buy.days', { days: p.expiry_days }),
                              <span key="price" className="plain-text" style={{ whiteSpace: 'nowrap' }}>
                                <strong>{formatSek(p.price)}</strong>
                              </span>,
                            ]}
                          />
                        }
                      />
                    </PlainListItem>
                  )}
                />
              </PlainCard>
            </PlainCol>
          </>
        )}
      </PlainRow>
    </>
  );
}
