/**
 * The five statistics pages (spec §1, §2): a period filter (this
 * month, last month, this year, a custom range of Stockholm days), the
 * charts (lazily loaded), the table beneath and its CSV and Excel exports.
 * Which page it is follows from the route's title key.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Button, Card, Col, DatePicker, Row, Segmented, Space, Spin } from 'antd';
import Table from '../../components/ResponsiveTable';
import { DownloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import dayjs from '../../i18n/dates';
import { useTranslation } from 'react-i18next';
import { activityWorkbook, exportStatistic, fetchStatistic, type StatisticPath } from '../../api/statistics';
import { saveFile } from '../../download';
import { GUTTER } from '../../config/constants';
import type { PeriodKind, PeriodQuery, Statistic } from '../../types/statistics';
import { formatCell } from './format';
import { sectorName } from '../../components/names';
import { useSession } from '../../store/session';
import { hasPermission } from '../../auth/permissions';
import PageTitle from '../../components/PageTitle';

const SeriesChart = lazy(() => import('./Charts').then((m) => ({ default: m.SeriesChart })));
const PieChart = lazy(() => import('./Charts').then((m) => ({ default: m.PieChart })));
const ActivityCases = lazy(() => import('./ActivityCases'));

export const STATISTIC_OF: Record<string, StatisticPath> = {
  statisticsAccount: 'statistic/account/',
  statisticsCustomer: 'statistic/user/',
  statisticsFinance: 'statistic/finance/',
  statisticsActivity: 'statistic/activity/',
  statisticsLegal: 'statistic/legal/',
};

const KINDS: PeriodKind[] = ['this_month', 'last_month', 'this_year', 'custom'];

export default function StatisticsPage({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('statistics');
  const path = STATISTIC_OF[titleKey] ?? 'statistic/activity/';
  const [period, setPeriod] = useState<PeriodQuery>({ period: 'this_month' });
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [data, setData] = useState<Statistic | null>(null);
  const [loading, setLoading] = useState(false);
  // A contact without "view all cases" sees its own cases only: the company's figures (counted over every
  // case) are not its to read (the server refuses them), so the page lists its cases alone.
  const userType = useSession((s) => s.user?.user_type);
  const permissions = useSession((s) => s.permission);
  const companyFigures = hasPermission(userType, permissions, 'view_all_cases');

  useEffect(() => {
    if (!companyFigures) return;
    if (period.period === 'custom' && !(period.from && period.to)) return;
    let live = true;
    setLoading(true);
    // The reader's language names the case types of the legal figures.
    fetchStatistic(path, period, i18n.language)
      .then((d) => live && setData(d))
      .catch(() => live && setData(null))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [path, period, i18n.language, companyFigures]);

  const download = async (format: 'csv' | 'xlsx') => {
    const blob = await exportStatistic(path, period, format, i18n.language);
    saveFile(blob, `${titleKey}-${data?.period?.from ?? ''}_${data?.period?.to ?? ''}.${format}`);
  };

  // Keys and stored names the server leaves to the reader's language: a case with no knowledge sector (an
  // empty cell), the account page's dimensions ("sector", "size"), their "none" and the seeded sectors' names.
  const cellText = (c: string, v: string | number, row: Record<number, string | number>): string => {
    if (c === 'knowledge_sector' && v === '') return t('column.noSector');
    if (c === 'dimension') return t(`dimension.${v}`, { defaultValue: String(v) });
    if (c === 'name' && (row[0] === 'sector' || row[0] === 'size')) {
      if (v === 'none') return t('column.noSector');
      return row[0] === 'sector' ? sectorName(String(v)) : String(v);
    }
    return formatCell(c, v, i18n.language);
  };
  const columns = (data?.table.columns ?? []).map((c, i) => ({
    key: c,
    title: t(`column.${c}`, { defaultValue: t(`metric.${c}`, { defaultValue: c }) }),
    dataIndex: i,
    render: (v: string | number, row: Record<number, string | number>) => cellText(c, v, row),
    align: i === 0 || c === 'knowledge_sector' ? ('left' as const) : ('right' as const),
  }));
  const rows = (data?.table.rows ?? []).map((r, i) => ({ key: i, ...Object.fromEntries(r.map((v, j) => [j, v])) }));

  return (
    <div className="page" data-testid="statistics-page" data-statistic={path}>
      <PageTitle titleKey={titleKey} />
      <Space wrap style={{ marginBottom: GUTTER }}>
        <Segmented
          data-testid="period-filter"
          value={period.period}
          options={KINDS.map((k) => ({ value: k, label: t(`period.${k}`) }))}
          onChange={(v) => {
            const kind = v as PeriodKind;
            if (kind === 'custom' && range) setPeriod({ period: 'custom', from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') });
            else setPeriod({ period: kind });
          }}
        />
        {period.period === 'custom' && (
          <DatePicker.RangePicker
            aria-label={t('period.custom')}
            value={range}
            onChange={(r) => {
              if (!r || !r[0] || !r[1]) return;
              setRange([r[0], r[1]]);
              setPeriod({ period: 'custom', from: r[0].format('YYYY-MM-DD'), to: r[1].format('YYYY-MM-DD') });
            }}
            disabledDate={(d) => d.isAfter(dayjs().add(1, 'year'))}
          />
        )}
        {companyFigures && (
          <>
            <Button icon={<DownloadOutlined />} onClick={() => void download('csv')} data-testid="export-csv" disabled={!data}>
              {t('exportCsv')}
            </Button>
            <Button icon={<DownloadOutlined />} onClick={() => void download('xlsx')} data-testid="export-xlsx" disabled={!data}>
              {t('exportExcel')}
            </Button>
          </>
        )}
        {path === 'statistic/activity/' && (
          <Button
            icon={<DownloadOutlined />}
            data-testid="export-activity-cases"
            onClick={() => void activityWorkbook(period, i18n.language).then((b) => saveFile(b, `activity-cases.xlsx`))}
          >
            {t('exportCases')}
          </Button>
        )}
      </Space>
      <Spin spinning={loading}>
        <Row gutter={[GUTTER, GUTTER]}>
          {(data?.series.length ?? 0) > 0 && (
            <Col xs={24} lg={data?.pie.length ? 16 : 24}>
              <Card title={t('chart')} className="activity-panel">
                <Suspense fallback={<Spin />}>
                  <SeriesChart points={data!.series} />
                </Suspense>
              </Card>
            </Col>
          )}
          {(data?.pie.length ?? 0) > 0 && (
            <Col xs={24} lg={data?.series.length ? 8 : 24}>
              <Card title={t('distribution')} className="activity-panel">
                <Suspense fallback={<Spin />}>
                  <PieChart slices={data!.pie} />
                </Suspense>
              </Card>
            </Col>
          )}
          {companyFigures ? (
            <Col span={24}>
              <Card>
                <Table data-testid="statistics-table" size="small" columns={columns} dataSource={rows} pagination={false} scroll={{ x: true }} />
              </Card>
            </Col>
          ) : (
            <Col span={24}>
              <Alert type="info" showIcon message={t('ownCasesOnly')} data-testid="statistics-own-cases-only" />
            </Col>
          )}
          {path === 'statistic/activity/' && (
            <Col span={24}>
              <Suspense fallback={<Spin />}>
                <ActivityCases period={period} />
              </Suspense>
            </Col>
          )}
        </Row>
      </Spin>
    </div>
  );
}
