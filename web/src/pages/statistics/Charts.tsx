/**
 * The statistics charts (@ant-design/plots), in their own chunk: loaded by
 * the statistics pages and dashboards only when a chart is shown, never in
 * the initial bundle. Their figures read as the tables' do, in the reader's
 * language: the value axis grouped ("80 000", "80,000"), a tooltip's amount in
 * SEK with two decimals and its hours as decimals. Whoever asked their system
 * for less motion (WCAG 2.3.3, as for antd's: config/theme.ts) gets the bars
 * and slices drawn at once, not grown in.
 */
import { Column, Pie } from '@ant-design/plots';
import { useTranslation } from 'react-i18next';
import type { Point, Slice } from '../../types/statistics';
import { REDUCED_MOTION } from '../../config/theme';
import { formatNumber } from '../../format';
import { formatCell, PALETTE, unitValue } from './format';

/**
 * One drawn value: its name as shown, the counter it is (hours, revenue…), its value in units (hours, SEK) and as
 * the server counts it (hundredths, öre), which the tooltip shows as the table's cell does.
 */
interface Drawn {
  name: string;
  metric: string;
  value: number;
  raw: number;
}

const tooltipItem = (lang: string) => (d: Drawn) => ({ name: d.name, value: formatCell(d.metric, d.raw, lang) });

export function SeriesChart({ points, height = 300 }: { points: Point[]; height?: number }) {
  const { t, i18n } = useTranslation('statistics');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const data = points.map((p) => ({ label: p.label, name: t(`metric.${p.metric}`, { defaultValue: p.metric }), metric: p.metric, value: unitValue(p.metric, p.value), raw: p.value }));
  return (
    <div data-testid="series-chart" role="img" aria-label={t('chartLabel')}>
      <Column
        data={data}
        xField="label"
        yField="value"
        colorField="name"
        group
        height={height}
        scale={{ color: { range: PALETTE } }}
        axis={{ x: { title: false }, y: { title: false, labelFormatter: (v: number) => formatNumber(v, { lang }) } }}
        tooltip={{ items: [tooltipItem(lang)] }}
        animate={REDUCED_MOTION ? false : undefined}
      />
    </div>
  );
}

export function PieChart({ slices, height = 260 }: { slices: Slice[]; height?: number }) {
  const { t, i18n } = useTranslation('statistics');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const data = slices
    .filter((s) => s.value > 0)
    .map((s) => {
      // A slice of a case type is hours; any other is the counter it names.
      const metric = s.key.startsWith('type.') ? 'hours' : s.key;
      return { name: s.name || t(`metric.${s.key}`, { defaultValue: s.key }), metric, value: unitValue(metric, s.value), raw: s.value };
    });
  return (
    <div data-testid="pie-chart" role="img" aria-label={t('pieLabel')}>
      <Pie
        data={data}
        angleField="value"
        colorField="name"
        height={height}
        scale={{ color: { range: PALETTE } }}
        legend={{ color: { position: 'bottom' } }}
        tooltip={{ items: [tooltipItem(lang)] }}
        animate={REDUCED_MOTION ? false : undefined}
      />
    </div>
  );
}
