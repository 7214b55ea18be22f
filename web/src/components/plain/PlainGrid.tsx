/**
 * antd's Row and Col as the dashboards use them (a gutter, spans of 24 columns per breakpoint), drawn by CSS alone
 * (layout/area.css `.plain-row`, `.plain-col-*`): a dashboard is an area's first page, which loads no antd
 * (src/budget.test.ts). antd's breakpoints: sm 576, md 768, lg 992, xl 1200 px; a span applies from its breakpoint up.
 */
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';

/** The spans the dashboards draw (layout/area.css has a class for each, at each breakpoint). */
export type Span = 6 | 8 | 12 | 24;

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

export function PlainCol({ span, xs, sm, md, lg, xl, className, children, ...rest }: ColProps) {
  const classes = [
    'plain-col',
    (span ?? xs) && `plain-col-${span ?? xs}`,
    sm && `plain-col-sm-${sm}`,
    md && `plain-col-md-${md}`,
    lg && `plain-col-lg-${lg}`,
    xl && `plain-col-xl-${xl}`,
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} {...rest}>
      {children}
    </div>
  );
}
