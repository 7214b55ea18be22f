/**
 * The statistics charts honour a reader's wish for less motion (WCAG 2.3.3), as the rest of the app does
 * (config/theme.ts): their bars and slices are drawn at once, not grown in. The chart library is replaced by
 * recorders of what the page asks it to draw.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, test, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const drawn: Array<{ chart: string; animate: unknown }> = [];
vi.mock('@ant-design/plots', () => ({
  Column: (props: { animate?: unknown }) => {
    drawn.push({ chart: 'Column', animate: props.animate });
    return null;
  },
  Pie: (props: { animate?: unknown }) => {
    drawn.push({ chart: 'Pie', animate: props.animate });
    return null;
  },
}));
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));

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
        <SeriesChart points={[{ label: '2026-11', metric: 'hours', value: 3 }]} />
        <PieChart slices={[{ key: 'type.advice', name: 'Advice', value: 2 }]} />
      </>,
    ),
  );
  act(() => root.unmount());
  return [...drawn];
}

afterEach(() => {
  window.matchMedia = original;
});

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
});
