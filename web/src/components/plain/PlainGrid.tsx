/**
 * antd's Row and Col as the dashboards use them (a gutter, spans of 24 columns per breakpoint), drawn by CSS alone
 * (layout/area.css `.plain-row`, `.plain-col`): a dashboard is an area's first page, which loads no antd
 * (src/budget.test.ts). antd's breakpoints: sm 576, md 768, lg 992, xl 1200 px; a span applies from its breakpoint
 * up, until a larger breakpoint's.
 */
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';

/** Columns of 24. */
export type Span = number;

interface RowProps extends HTMLAttributes<HTMLDivElement> {
  /** Horizontal and vertical space between the columns, in px (antd's `gutter={[h, v]}`). */
  gutter?: [number, number];
  children?: ReactNode;
  'data-testid'?: string;
}

export function PlainRow({ gutter = [0, 0], className, style, children, ...rest }: RowProps) {
  const vars = { '--gutter-h': `${gutter[0]}px`, '--gutter-v': `${gutter[1]}px` } as CSSProperties;
  return (
    <div className={className ? `plain-row ${className}` : 'plain-row'} style={{ ...vars, ...style }} {...rest}>
      {children}
    </div>
  );
}

interface ColProps extends HTMLAttributes<HTMLDivElement> {
  span?: Span;
  xs?: Span;
  sm?: Span;
  md?: Span;
  lg?: Span;
  xl?: Span;
  children?: ReactNode;
  'data-testid'?: string;
}

export function PlainCol({ span, xs, sm, md, lg, xl, className, style, children, ...rest }: ColProps) {
  const spans: Record<string, number | undefined> = { '--span-xs': span ?? xs, '--span-sm': sm, '--span-md': md, '--span-lg': lg, '--span-xl': xl };
  const vars = Object.fromEntries(Object.entries(spans).filter(([, v]) => v !== undefined)) as CSSProperties;
  return (
    <div className={className ? `plain-col ${className}` : 'plain-col'} style={{ ...vars, ...style }} {...rest}>
      {children}
    </div>
  );
}
