import { PlainCard } from '../components/PlainCard';
import { PlainCol, PlainRow } from '../components/plain/PlainGrid';
import { themedModule } from '../components/themed';
// Typography's look without antd's Typography (its copy, edit and ellipsis bring Tooltip and TextArea to every area's first page).
import { PublicLead, PublicTitle } from '../components/PublicCard';
import { useTranslation } from 'react-i18next';
import { resolveRole } from '../auth/roles';
import { GUTTER } from '../config/constants';
import { useSession } from '../store/session';
import { lazy, Suspense } from 'react';
import { FiguresSkeleton } from '../components/FiguresSkeleton';
import { Lines } from '../components/Skeletons';

// The dashboard draws no antd (an area's first page: src/budget.test.ts), nor do its figures: they show without
// waiting for antd's base. The lawyer's ratings card draws antd's Rate, and loads with antd's theme.
/** The lawyer's ratings card: loaded only on the lawyer's dashboard. */
const LawyerRatingSummaryCard = lazy(() => themedModule(() => import('../components/collaboration/LawyerRatingSummaryCard')));
/** The role's figures: loaded after the page shows, so the dashboard's first paint stays within its budget. */
const DashboardFigures = lazy(() => import('./DashboardFigures'));

/** Role dashboard (the prefix root). */
/** `refresh`: a change of it reads the figures again (the customer's dashboard after a purchase). */
export default function Dashboard({ titleKey, refresh = 0 }: { titleKey: string; refresh?: number }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const role = resolveRole(user);
  const name = user?.full_name?.trim() || user?.email || '';
  return (
    <div className="page" data-testid="dashboard-page" data-role={role}>
      <PublicTitle level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </PublicTitle>
      <PlainRow gutter={[GUTTER, GUTTER]}>
        <PlainCol xs={24} lg={12}>
          <PlainCard>
            <PublicTitle level={4} data-testid="dashboard-welcome">
              {t('dashboard.welcome', { name })}
            </PublicTitle>
            <PublicLead>{t('dashboard.signedInAs', { role: t(`roles.${role}`) })}</PublicLead>
          </PlainCard>
        </PlainCol>
        <PlainCol xs={24} lg={12}>
          <PlainCard>
            {/* The menu is at the left on a desktop and behind the header's button on a phone: "the menu" only. */}
            <PublicLead data-testid="dashboard-intro">
              {t(role === 'customer' || role === 'customerContact' ? 'dashboard.introCustomer' : 'dashboard.introStaff')}
            </PublicLead>
          </PlainCard>
        </PlainCol>
        {role === 'lawyer' && (
          <PlainCol xs={24} lg={12}>
            {/* The card's own height (LawyerRatingSummaryCard), so the figures below do not move when it comes. */}
            <Suspense
              fallback={
                <PlainCard style={{ height: 127 }}>
                  <Lines rows={2} title={false} lastWidth="61%" />
                </PlainCard>
              }
            >
              <LawyerRatingSummaryCard />
            </Suspense>
          </PlainCol>
        )}
      </PlainRow>
      {role !== 'none' && (
        <Suspense fallback={<FiguresSkeleton role={role} />}>
          <DashboardFigures role={role} refresh={refresh} />
        </Suspense>
      )}
    </div>
  );
}
