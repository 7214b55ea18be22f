/** Dashboards and statistics (GET /api/dashboard/, /api/chart/, /api/pie-chart/hour/, /api/statistic/…). */

export type PeriodKind = 'this_month' | 'last_month' | 'this_year' | 'custom';

export interface PeriodQuery {
  period: PeriodKind;
  from?: string;
  to?: string;
}

/** One value of a chart series: a day (YYYY-MM-DD) or month (YYYY-MM) and a counter name. */
export interface Point {
  label: string;
  metric: string;
  value: number;
}

export interface Slice {
  key: string;
  name: string;
  value: number;
}

/** Columns are keys (translated here); hours are hundredths, money öre. */
export interface StatTable {
  columns: string[];
  rows: (string | number)[][];
}

export interface Statistic {
  period: { from: string; to: string } | null;
  by_day: boolean;
  series: Point[];
  pie: Slice[];
  table: StatTable;
  items_read: number;
}

export interface HoursSplit {
  billable: number;
  nonbillable: number;
  rattsskydd: number;
  total: number;
}

export interface StatusCounts {
  draft: number;
  waiting: number;
  inprogress: number;
  complete: number;
}

export interface SubscriptionGauge {
  id: number;
  name: string;
  limit: number;
  used: number;
  hour_based: boolean;
  expire_on: string;
  expiring: boolean;
}

export type Dashboard =
  | {
      role: 'admin';
      pending_cases: number;
      pending_customers: number;
      cases: StatusCounts;
      hours_week: HoursSplit;
      hours_month: HoursSplit;
      active_subscriptions: number;
      expiring_subscriptions: number;
      revenue_month_hours: number;
      revenue_month_subscriptions: number;
      revenue_month: number;
      top_lawyers: { uid: string; name: string; value: number }[];
    }
  | {
      role: 'lawyer';
      active_cases: number;
      available_cases: number;
      hours_week: HoursSplit;
      hours_month: HoursSplit;
      deadlines: { uid: string; case_number: string; subject: string; deadline: string }[];
      rating_average: number | null;
      rating_count: number;
    }
  | {
      role: 'sales';
      customers: number;
      draft_cases: number;
      expiring_subscriptions: number;
      packages_sold_month: number;
      revenue_month_subscriptions: number;
    }
  | {
      role: 'customer';
      open_cases: number;
      cases: StatusCounts;
      subscriptions: SubscriptionGauge[];
      recent: { uid: string; case_number: string; subject: string; status: string; updated_at: string }[];
      expiring: SubscriptionGauge[];
    };
