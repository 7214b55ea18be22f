/**
 * The statistics charts honour a reader's wish for less motion (WCAG 2.3.3), as the rest of the app does
 * (config/theme.ts): their bars and slices are drawn at once, not grown in. Their figures read as the tables'
 * do, in the reader's language. The chart library is replaced by recorders of what the page asks it to draw.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, test, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Item = (d: { name: string; metric: string; value: number; raw: number }) => { name: string; value: string };
interface ChartProps {
  animate?: unknown;
  data: Array<{ name: string; metric: string; value: number; raw: number }>;
  axis?: { y?: { labelFormatter?: (v: number) => string } };
  tooltip?: { items?: Item[] };
}
const drawn: Array<{ chart: string; animate: unknown }> = [];
const props: Record<string, ChartProps> = {};
vi.mock('@ant-design/plots', () => ({
  Column: (p: ChartProps) => {
    drawn.push({ chart: 'Column', animate: p.animate });
    props.Column = p;
    return null;
  },
  Pie: (p: ChartProps) => {
    drawn.push({ chart: 'Pie', animate: p.animate });
    props.Pie = p;
    return null;
  },
}));
let language = 'sv';
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key, i18n: { language, resolvedLanguage: language } }) }));

const original = window.matchMedia;

/** The charts' module as a browser loads it whose reader asked (or not) for reduced motion. */
async function chartsFor(reducedMotion: boolean) {
  window.matchMedia = ((query: string) => ({
    ...original(query),
    matches: reducedMotion && query === '(prefers-reduced-motion: reduce)',
  })) as typeof window.matchMedia;
  // The wish is read once, when the theme's module loads.
  vi.resetModules();
  return import('./Charts');
}

async function draw(reducedMotion: boolean) {
  const { PieChart, SeriesChart } = await chartsFor(reducedMotion);
  drawn.length = 0;
  const root = createRoot(document.createElement('div'));
  await act(async () =>
    root.render(
      <>
        <SeriesChart
          points={[
            { label: '2026-11', metric: 'hours.billable', value: 1250 },
            { label: '2026-11', metric: 'revenue.hours', value: 8_000_000 },
          ]}
        />
        <PieChart
          slices={[
            { key: 'type.advice', name: 'Advice', value: 250 },
            { key: 'revenue.packages', name: '', value: 12_345_678 },
          ]}
        />
      </>,
    ),
  );
  act(() => root.unmount());
  return [...drawn];
}

afterEach(() => {
  window.matchMedia = original;
  language = 'sv';
});

/** What a chart's tooltip says for each drawn value. */
const tooltips = (p: ChartProps) => p.data.map((d) => p.tooltip!.items![0](d));

describe('statistics charts and reduced motion', () => {
  test('with reduced motion asked for, neither chart animates', async () => {
    expect(await draw(true)).toEqual([
      { chart: 'Column', animate: false },
      { chart: 'Pie', animate: false },
    ]);
  });

  test("otherwise the library's own animation is kept", async () => {
    expect(await draw(false)).toEqual([
      { chart: 'Column', animate: undefined },
      { chart: 'Pie', animate: undefined },
    ]);
  });

  test('figures in Swedish: the value axis grouped, amounts in SEK with two decimals, hours as decimals', async () => {
    language = 'sv';
    await draw(true);
    expect(props.Column.axis!.y!.labelFormatter!(80000)).toBe('80\u00a0000');
    expect(tooltips(props.Column)).toEqual([
      { name: 'metric.hours.billable', value: '12,5' },
      { name: 'metric.revenue.hours', value: '80\u00a0000,00\u00a0SEK' },
    ]);
    expect(tooltips(props.Pie)).toEqual([
      { name: 'Advice', value: '2,5' },
      { name: 'metric.revenue.packages', value: '123\u00a0456,78\u00a0SEK' },
    ]);
  });

  test('figures in English: grouped with commas, point decimals, the currency code first', async () => {
    language = 'en';
    await draw(true);
    expect(props.Column.axis!.y!.labelFormatter!(80000)).toBe('80,000');
    expect(tooltips(props.Column).map((x) => x.value)).toEqual(['12.5', 'SEK\u00a080,000.00']);
    expect(tooltips(props.Pie).map((x) => x.value)).toEqual(['2.5', 'SEK\u00a0123,456.78']);
  });
});
