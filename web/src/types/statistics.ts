/** Dashboards and statistics (GET /api/dashboard/, /api/chart/, /api/pie-chart/hour/, /api/statistic/…). */

import type { components } from './api.gen';

type Schemas = components['schemas'];

export type PeriodKind = 'this_month' | 'last_month' | 'this_year' | 'custom';

export interface PeriodQuery {
  period: PeriodKind;
  from?: string;
  to?: string;
}

/** One value of a chart series: a day (YYYY-MM-DD) or month (YYYY-MM) and a counter name. */
export type Point = Schemas['Point'];

export type Slice = Schemas['Slice'];

/** Columns are keys (translated here); hours are hundredths, money öre. */
export interface StatTable {
  columns: string[];
  rows: (string | number)[][];
}

export type Statistic = Schemas['Statistic'];

export type HoursSplit = Schemas['HoursSplit'];

export type StatusCounts = Schemas['StatusCounts'];

export type SubscriptionGauge = Schemas['SubscriptionGauge'];

export type Dashboard = Schemas['Dashboard'];
