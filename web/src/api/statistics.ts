/** Dashboards, charts and the statistics pages (spec §7 dashboard/, chart/, pie-chart/hour/, statistic/…). */
import { api } from './client';
import type { Case } from '../types/cases';
import type { Page } from '../types/paging';
import type { Dashboard, PeriodQuery, Statistic } from '../types/statistics';

export type StatisticPath = 'statistic/account/' | 'statistic/user/' | 'statistic/finance/' | 'statistic/activity/' | 'statistic/legal/';

function query(p: PeriodQuery, extra: Record<string, string> = {}): Record<string, string> {
  const q: Record<string, string> = { period: p.period, ...extra };
  if (p.period === 'custom' && p.from && p.to) {
    q.from = p.from;
    q.to = p.to;
  }
  return q;
}

export const fetchDashboard = () => api.get<Dashboard>('/dashboard/', { suppressError: true });
export const fetchStatistic = (path: StatisticPath, p: PeriodQuery, lang: string) => api.get<Statistic>(`/${path}`, { query: query(p, { lang }) });
export const fetchChart = (p: PeriodQuery) => api.get<Statistic>('/chart/', { query: query(p) });
export const fetchHourPie = (p: PeriodQuery) => api.get<Statistic>('/pie-chart/hour/', { query: query(p) });
/** The page's table as a file: CSV or Excel. */
export const exportStatistic = (path: StatisticPath, p: PeriodQuery, format: 'csv' | 'xlsx', lang: string) =>
  api.blob(`/${path}`, { query: query(p, { format, lang }) });
export const activityWorkbook = (p: PeriodQuery, lang: string) => api.blob('/statistic/activity/excel/', { query: query(p, { lang }) });
/** A page (10) of the cases opened in the period, newest first (statistic/activity/cases). */
export const fetchActivityCases = (p: PeriodQuery, cursor: string | null) =>
  api.get<Page<Case>>('/statistic/activity/cases', { query: query(p, cursor ? { cursor } : {}) });
