/**
 * The statistics charts (@ant-design/plots), in their own chunk: loaded by
 * the statistics pages and dashboards only when a chart is shown, never in
 * the initial bundle. Whoever asked their system for less motion (WCAG 2.3.3,
 * as for antd's: config/theme.ts) gets the bars and slices drawn at once, not
 * grown in.
 */
import { Column, Pie } from '@ant-design/plots';
import { useTranslation } from 'react-i18next';
import type { Point, Slice } from '../../types/statistics';
import { REDUCED_MOTION } from '../../config/theme';
import { PALETTE, unitValue } from './format';

export function SeriesChart({ points, height = 300 }: { points: Point[]; height?: number }) {
  const { t } = useTranslation('statistics');
  const data = points.map((p) => ({ label: p.label, metric: t(`metric.${p.metric}`, { defaultValue: p.metric }), value: unitValue(p.metric, p.value) }));
  return (
    <div data-testid="series-chart" role="img" aria-label={t('chartLabel')}>
      <Column
        data={data}
        xField="label"
        yField="value"
        colorField="metric"
        group
        height={height}
        scale={{ color: { range: PALETTE } }}
        axis={{ x: { title: false }, y: { title: false } }}
        animate={REDUCED_MOTION ? false : undefined}
      />
    </div>
  );
}

export function PieChart({ slices, height = 260 }: { slices: Slice[]; height?: number }) {
  const { t } = useTranslation('statistics');
  const data = slices
    .filter((s) => s.value > 0)
    .map((s) => ({ key: s.name || t(`metric.${s.key}`, { defaultValue: s.key }), value: unitValue(s.key.startsWith('type.') ? 'hours' : s.key, s.value) }));
  return (
    <div data-testid="pie-chart" role="img" aria-label={t('pieLabel')}>
      <Pie data={data} angleField="value" colorField="key" height={height} scale={{ color: { range: PALETTE } }} legend={{ color: { position: 'bottom' } }} animate={REDUCED_MOTION ? false : undefined} />
    </div>
  );
}
