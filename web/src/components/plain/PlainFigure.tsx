/**
 * The dashboards' figures drawn by plain elements and CSS (layout/area.css `.plain-figure`, `.plain-gauge`), as antd's
 * Statistic and Progress (type "dashboard") draw them: the dashboard is an area's first page, whose figures should not
 * wait for antd's base (its CSS-in-JS runtime and theme: src/budget.test.ts).
 */
import type { ReactNode } from 'react';

/** antd's Statistic: a title over a value (`size` the value's font size in px, antd's `valueStyle.fontSize`). */
export function PlainFigure({ title, value, size = 24, className }: { title: ReactNode; value: ReactNode; size?: number; className?: string }) {
  return (
    <div className={className ? `plain-figure ${className}` : 'plain-figure'}>
      <div className="plain-figure-title">{title}</div>
      <div className="plain-figure-value" style={{ fontSize: size }}>
        {value}
      </div>
    </div>
  );
}

/** antd's dashboard gauge: 75° open at the bottom. */
const GAP_DEGREES = 75;
const STROKE = 6;
const RADIUS = 50 - STROKE / 2;
const PERIMETER = 2 * Math.PI * RADIUS;
const ARC = (PERIMETER * (360 - GAP_DEGREES)) / 360;

/**
 * antd's Progress of type "dashboard": an arc filled to `percent` (0–100) with `label` in its middle, antd's blue
 * (its `colorInfo`), green when full; a progress bar to assistive technology (`aria-label` names it).
 */
export function PlainGauge({ percent, label, size = 56, 'aria-label': ariaLabel }: { percent: number; label: ReactNode; size?: number; 'aria-label'?: string }) {
  const shown = Math.max(0, Math.min(100, percent));
  // The arc starts at the gap's left edge and runs clockwise (SVG's angles: 0° at three o'clock, 90° at six).
  const rotate = `rotate(${90 + GAP_DEGREES / 2} 50 50)`;
  return (
    <div
      className={shown >= 100 ? 'plain-gauge plain-gauge-full' : 'plain-gauge'}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={shown}
      aria-label={ariaLabel}
      style={{ width: size, height: size, fontSize: size * 0.15 + 6 }}
    >
      <svg viewBox="0 0 100 100" aria-hidden focusable="false">
        <circle className="plain-gauge-trail" cx="50" cy="50" r={RADIUS} strokeWidth={STROKE} strokeDasharray={`${ARC} ${PERIMETER}`} transform={rotate} />
        {shown > 0 && (
          <circle
            className="plain-gauge-stroke"
            cx="50"
            cy="50"
            r={RADIUS}
            strokeWidth={STROKE}
            strokeDasharray={`${(ARC * shown) / 100} ${PERIMETER}`}
            transform={rotate}
          />
        )}
      </svg>
      <span className="plain-gauge-label">{label}</span>
    </div>
  );
}
