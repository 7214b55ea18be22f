/**
 * antd's Table for every list of the app, readable on a phone: each cell
 * carries its column's title (`data-label`), and below 768 px the stylesheet
 * (layout/area.css, `.responsive-table`) shows each row as a card of "label value"
 * lines, so every column and its actions stay within the screen's width
 * rather than past a sideways scroll nobody sees. Wider screens see the table.
 */
import { Table as AntTable } from 'antd';
import type { TableProps } from 'antd';
import { useMemo, type HTMLAttributes, type ReactNode } from 'react';

type Columns<T> = NonNullable<TableProps<T>['columns']>;

/** A column title as text (titles rendered by a function or markup give none: the cell shows without a label). */
function labelOf(title: unknown): string {
  if (typeof title === 'string' || typeof title === 'number') return String(title);
  return '';
}

/** The columns with each cell labelled by its title; groups keep their children labelled. */
export function withCellLabels<T>(columns: Columns<T>): Columns<T> {
  return columns.map((c) => {
    if ('children' in c && c.children) return { ...c, children: withCellLabels(c.children as Columns<T>) };
    const label = labelOf((c as { title?: ReactNode }).title);
    const own = c.onCell;
    return {
      ...c,
      onCell: (record: T, index?: number) => ({ ...(own?.(record, index) ?? {}), 'data-label': label }) as HTMLAttributes<HTMLElement>,
    };
  }) as Columns<T>;
}

function ResponsiveTable<T extends object>(props: TableProps<T>) {
  const { columns, className } = props;
  const labelled = useMemo(() => (columns ? withCellLabels(columns) : columns), [columns]);
  return <AntTable<T> {...props} columns={labelled} className={className ? `responsive-table ${className}` : 'responsive-table'} />;
}

export default Object.assign(ResponsiveTable, {
  Summary: AntTable.Summary,
  SELECTION_COLUMN: AntTable.SELECTION_COLUMN,
  EXPAND_COLUMN: AntTable.EXPAND_COLUMN,
});
