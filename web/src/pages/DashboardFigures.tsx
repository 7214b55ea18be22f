/**
 * Each role's figures on its dashboard, from GET
 * /api/dashboard/: every number links to the list behind it (catalogue
 * route ids through `pathFor`, so the links follow the catalogue).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { PlainCard, PlainList, PlainListItem, PlainListMeta } from '../components/PlainCard';
import { PlainFigure as Figure, PlainGauge } from '../components/plain/PlainFigure';
import { PlainCol as Col, PlainRow as Row } from '../components/plain/PlainGrid';
import Link from '../components/Link';
import { useTranslation } from 'react-i18next';
import { fetchDashboard } from '../api/statistics';
import { useLoad } from '../api/useList';
import { GUTTER } from '../config/constants';
import type { Role } from '../auth/roles';
import { hasRoute, pathFor } from '../routes/pathFor';
import type { RouteId } from '../routes/catalogue';
import type { HoursSplit } from '../types/statistics';
import { formatHours, formatSek } from './statistics/format';
import { formatDate, formatRating } from '../format';
import { FiguresSkeleton } from '../components/FiguresSkeleton';
import { useSession } from '../store/session';
import { hasPermission } from '../auth/permissions';
// Upcoming video meetings: in this lazily loaded chunk, not in the dashboard's first load.
import UpcomingMeetingsCard from './addons/meetings/UpcomingMeetingsCard';

function Linked({ role, to, params, children }: { role: Role; to: RouteId; params?: Record<string, string>; children: ReactNode }) {
  return hasRoute(role, to) ? <Link to={pathFor(role, to, params)}>{children}</Link> : <>{children}</>;
}

/** A figure card; `wide`: an amount of money, the whole width on a phone so it never runs past its card. */
function Num({ label, value, role, to, testId, wide }: { label: string; value: ReactNode; role: Role; to?: RouteId; testId: string; wide?: boolean }) {
  const body = <Figure className="dash-figure" title={label} value={value} size={26} />;
  return (
    <Col xs={wide ? 24 : 12} sm={12} md={8} xl={6}>
      <PlainCard size="small" data-testid={testId}>
        {to ? (
          <Linked role={role} to={to}>
            {body}
          </Linked>
        ) : (
          body
        )}
      </PlainCard>
    </Col>
  );
}

function Hours({ title, h, lang, testId }: { title: string; h: HoursSplit; lang: string; testId: string }) {
  const { t } = useTranslation('statistics');
  return (
    <Col xs={24} md={12}>
      <PlainCard size="small" title={title} data-testid={testId}>
        <Row>
          {(['billable', 'nonbillable', 'rattsskydd', 'total'] as const).map((k) => (
            <Col span={6} key={k} data-testid={`${testId}-${k}`}>
              <Figure title={t(`hours.${k}`)} value={formatHours(h[k], lang)} size={20} />
            </Col>
          ))}
        </Row>
      </PlainCard>
    </Col>
  );
}

/** The hours of this week and of this month (admin: everyone's, lawyer: their own). */
function WeekAndMonth({ week, month, lang }: { week: HoursSplit; month: HoursSplit; lang: string }) {
  const { t } = useTranslation('statistics');
  return (
    <>
      <Hours title={t('dash.hoursWeek')} h={week} lang={lang} testId="dash-hours-week" />
      <Hours title={t('dash.hoursMonth')} h={month} lang={lang} testId="dash-hours-month" />
    </>
  );
}

/** A half-width card listing `items` (`render` draws one), "empty" when there are none. */
function ListCard<T>({ title, testId, items, render }: { title: string; testId: string; items: T[]; render: (item: T) => ReactNode }) {
  const { t } = useTranslation('statistics');
  return (
    <Col xs={24} md={12}>
      <PlainCard size="small" title={title} data-testid={testId}>
        <PlainList items={items} empty={t('empty')} render={render} />
      </PlainCard>
    </Col>
  );
}

/** A case in a list: its number and subject, linked to its details. */
function CaseItem({ role, c, extra }: { role: Role; c: { uid: string; case_number: string; subject: string }; extra: ReactNode }) {
  return (
    <PlainListItem extra={extra}>
      <Linked role={role} to="caseDetails" params={{ id: c.uid }}>
        <span className="nowrap">{c.case_number}</span> {c.subject}
      </Linked>
    </PlainListItem>
  );
}

/** `refresh`: a change of it reads the figures again (e.g. after a purchase on the same page). */
export default function DashboardFigures({ role, refresh = 0 }: { role: Role; refresh?: number }) {
  const { t, i18n } = useTranslation('statistics');
  // The key stays: after a purchase the figures shown stay until the new ones arrive.
  const { data: d, error: failed, reload } = useLoad(fetchDashboard);
  // A contact without "view time bank" gets no hours left (the server sends none either).
  const userType = useSession((s) => s.user?.user_type);
  const permissions = useSession((s) => s.permission);
  const seesTimeBank = hasPermission(userType, permissions, 'view_time_bank');
  const first = useRef(refresh);
  useEffect(() => {
    if (refresh !== first.current) void reload();
  }, [refresh, reload]);
  // While loading: the same grid of cards, so the page does not grow when the figures arrive.
  if (!d) return failed ? null : <FiguresSkeleton role={role} />;
  const lang = i18n.language;
  return (
    <Row gutter={[GUTTER, GUTTER]} style={{ marginTop: GUTTER }} data-testid="dashboard-figures">
      {d.role === 'admin' && (
        <>
          <Num role={role} testId="dash-pending-cases" label={t('dash.pendingCases')} value={d.pending_cases} to="pendingCases" />
          <Num role={role} testId="dash-pending-customers" label={t('dash.pendingCustomers')} value={d.pending_customers} to="customersPending" />
          <Num role={role} testId="dash-available" label={t('dash.available')} value={d.cases.waiting} to="availableCases" />
          <Num role={role} testId="dash-closed" label={t('dash.closed')} value={d.cases.complete} to="closedCases" />
          <Num role={role} testId="dash-inprogress" label={t('dash.inProgress')} value={d.cases.inprogress} to="cases" />
          <Num role={role} testId="dash-active-subs" label={t('dash.activeSubscriptions')} value={d.active_subscriptions} to="customersActive" />
          <Num role={role} testId="dash-expiring" label={t('dash.expiring')} value={d.expiring_subscriptions} to="customersActive" />
          <Num role={role} testId="dash-revenue" wide label={t('dash.revenueMonth')} value={formatSek(d.revenue_month, lang)} to="statisticsFinance" />
          <WeekAndMonth week={d.hours_week} month={d.hours_month} lang={lang} />
          <ListCard
            title={t('dash.topLawyers')}
            testId="dash-top-lawyers"
            items={d.top_lawyers}
            render={(l) => (
              <PlainListItem extra={formatHours(l.value, lang)}>
                <span className="plain-text">{l.name}</span>
              </PlainListItem>
            )}
          />
        </>
      )}
      {d.role === 'lawyer' && (
        <>
          <Num role={role} testId="dash-active" label={t('dash.myActive')} value={d.active_cases} to="cases" />
          <Num role={role} testId="dash-available" label={t('dash.available')} value={d.available_cases} to="availableCases" />
          <Num
            role={role}
            testId="dash-rating"
            label={t('dash.rating', { count: d.rating_count })}
            value={d.rating_average == null ? '–' : t('dash.ratingOf', { average: formatRating(d.rating_average, lang) })}
          />
          <WeekAndMonth week={d.hours_week} month={d.hours_month} lang={lang} />
          <ListCard title={t('dash.deadlines')} testId="dash-deadlines" items={d.deadlines} render={(c) => <CaseItem role={role} c={c} extra={c.deadline} />} />
        </>
      )}
      {d.role === 'sales' && (
        <>
          <Num role={role} testId="dash-customers" label={t('dash.myCustomers')} value={d.customers} to="customersAll" />
          <Num role={role} testId="dash-drafts" label={t('dash.drafts')} value={d.draft_cases} to="draftCases" />
          <Num role={role} testId="dash-expiring" label={t('dash.expiring')} value={d.expiring_subscriptions} to="customersAll" />
          <Num role={role} testId="dash-sold" label={t('dash.soldMonth')} value={d.packages_sold_month} to="statisticsCustomer" />
          <Num role={role} testId="dash-sold-sek" wide label={t('dash.soldMonthSek')} value={formatSek(d.revenue_month_subscriptions, lang)} to="statisticsCustomer" />
        </>
      )}
      {d.role === 'customer' && (
        <>
          <Num role={role} testId="dash-open" label={t('dash.openCases')} value={d.open_cases} to="cases" />
          <Num role={role} testId="dash-drafts" label={t('dash.drafts')} value={d.cases.draft} to="draftCases" />
          <Num role={role} testId="dash-closed" label={t('dash.closed')} value={d.cases.complete} to="closedCases" />
          {seesTimeBank && (
            <ListCard
              title={t('dash.hoursLeft')}
              testId="dash-gauges"
              items={d.subscriptions}
              render={(s) => {
                const pct = s.limit > 0 ? Math.min(100, Math.round((s.used * 100) / s.limit)) : 0;
                const left = s.hour_based ? formatHours(Math.max(0, s.limit - s.used), lang) : String(Math.max(0, s.limit - s.used));
                return (
                  <PlainListItem extra={<PlainGauge size={56} percent={pct} label={left} aria-label={`${t('dash.hoursLeft')}: ${s.name}`} />}>
                    <PlainListMeta title={s.name} description={`${t('dash.expires')} ${formatDate(s.expire_on)}`} />
                  </PlainListItem>
                );
              }}
            />
          )}
          <ListCard title={t('dash.recent')} testId="dash-recent" items={d.recent} render={(c) => <CaseItem role={role} c={c} extra={formatDate(c.updated_at)} />} />
          {d.expiring.length > 0 && (
            <Col span={24}>
              <PlainCard size="small" title={t('dash.expiringList')} data-testid="dash-expiring-list">
                <PlainList
                  items={d.expiring}
                  render={(s) => (
                    <PlainListItem extra={`${t('dash.expires')} ${formatDate(s.expire_on)}`}>
                      <span className="card-list-name">{s.name}</span>
                    </PlainListItem>
                  )}
                />
              </PlainCard>
            </Col>
          )}
        </>
      )}
      <UpcomingMeetingsCard role={role} />
    </Row>
  );
}
