/**
 * The dashboards' cards and short lists, drawn as antd's Card and List draw
 * them (styles.css `.plain-card`; layout/area.css its head and `.card-list`) with plain elements: antd's
 * Card brings Tabs (rc-tabs, ~13 KiB gzip) and its List brings Pagination with
 * Select and a virtual list (~30 KiB), none of which a dashboard shows
 * (a dashboard ≤ 300 KiB before it is usable, web/src/budget.test.ts).
 */
import { Fragment, type CSSProperties, type ReactNode } from 'react';

/** antd's bordered Card: optional title row (with `extra` at its end), `small`: the compact size. */
export function PlainCard({
  title,
  extra,
  size,
  style,
  children,
  'data-testid': testId,
}: {
  title?: ReactNode;
  extra?: ReactNode;
  size?: 'small';
  style?: CSSProperties;
  children?: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <div className={size === 'small' ? 'plain-card plain-card-small' : 'plain-card'} style={style} data-testid={testId}>
      {(title || extra) && (
        <div className="plain-card-head">
          <div className="plain-card-title">{title}</div>
          {extra && <div className="plain-card-extra">{extra}</div>}
        </div>
      )}
      <div className="plain-card-body">{children}</div>
    </div>
  );
}

/** antd's List (no pagination): its items, or `empty` when there are none. */
export function PlainList<T>({
  items,
  render,
  empty,
  size,
}: {
  items: readonly T[];
  render: (item: T, index: number) => ReactNode;
  empty?: ReactNode;
  size?: 'small';
}) {
  return (
    <div className={size === 'small' ? 'card-list card-list-small' : 'card-list'}>
      {items.length ? <ul className="card-list-items">{items.map((item, i) => <Fragment key={i}>{render(item, i)}</Fragment>)}</ul> : <div className="card-list-empty">{empty}</div>}
    </div>
  );
}

/** antd's List.Item: content, then its actions, then `extra` at the row's end. */
export function PlainListItem({
  children,
  actions,
  extra,
  'data-testid': testId,
}: {
  children: ReactNode;
  actions?: ReactNode[];
  extra?: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <li className="card-list-item" data-testid={testId}>
      {children}
      {actions?.length ? (
        <ul className="card-list-actions">
          {actions.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      ) : null}
      {extra}
    </li>
  );
}

/** antd's List.Item.Meta: a title over a secondary description. */
export function PlainListMeta({ title, description }: { title: ReactNode; description?: ReactNode }) {
  return (
    <div className="card-list-meta">
      <div className="card-list-meta-content">
        <h4 className="card-list-meta-title">{title}</h4>
        {description != null && <div className="card-list-meta-description">{description}</div>}
      </div>
    </div>
  );
}
