/**
 * antd's Badge as the areas' shell draws it (a count on a header button or beside a menu entry), drawn by CSS
 * alone (layout/area.css `.plain-badge`): the shell is an area's first page, which loads no antd (src/budget.test.ts).
 * With `children`, the count sits on the child's top right corner; without, it stands in the text. Nothing is drawn
 * for a count of 0, as antd's Badge without `showZero`.
 */
import type { CSSProperties, ReactNode } from 'react';

export interface PlainBadgeProps {
  count: number;
  /** Above it the badge reads "{overflowCount}+" (antd's default 99). */
  overflowCount?: number;
  size?: 'default' | 'small';
  children?: ReactNode;
  style?: CSSProperties;
  'data-testid'?: string;
  'data-count'?: number;
}

export default function PlainBadge({ count, overflowCount = 99, size = 'default', children, style, ...data }: PlainBadgeProps) {
  const shown = count > overflowCount ? `${overflowCount}+` : String(count);
  const sup =
    count > 0 ? (
      <sup className={size === 'small' ? 'plain-badge-count plain-badge-count-sm' : 'plain-badge-count'} title={String(count)}>
        {shown}
      </sup>
    ) : null;
  return (
    <span className={children === undefined ? 'plain-badge plain-badge-standalone' : 'plain-badge'} style={style} {...data}>
      {children}
      {sup}
    </span>
  );
}
