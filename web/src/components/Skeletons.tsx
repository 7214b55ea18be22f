/**
 * Skeletons shown instead of blank space while a page, a list's first page or
 * a dashboard's figures load: shaped and sized like what
 * will appear, so nothing below them jumps when it does. The role area's frame
 * (AreaSkeleton) is in the entry chunk, so these are drawn with CSS alone
 * (styles.css `.bone`: antd's Skeleton's sizes, colours and shimmer; the card
 * is `.plain-card`): antd's Skeleton would put its component and style code on
 * the login page's budget. The dashboard's figures are in FiguresSkeleton.tsx.
 */
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

/** One grey block with the loading shimmer, sized as antd's Skeleton.Input (small 24px, default 32px, large 40px tall). */
export function Bone({ size = 'default', style }: { size?: 'small' | 'default' | 'large'; style?: CSSProperties }) {
  return <span className={`bone bone-${size}`} style={style} aria-hidden />;
}

/**
 * Text lines as antd's Skeleton paragraph: an optional title line, then `rows` lines, the last one shorter;
 * `lastWidth` sets the last line's width as antd's `paragraph.width` does.
 */
export function Lines({ rows, title, lastWidth }: { rows: number; title: boolean; lastWidth?: string }) {
  return (
    <div className="bone-lines" aria-hidden>
      {title && <span className="bone bone-line bone-line-title" />}
      {Array.from({ length: rows }, (_, i) => (
        <span className="bone bone-line" key={i} style={lastWidth && i === rows - 1 ? { width: lastWidth } : undefined} />
      ))}
    </div>
  );
}

/** The page title's place (Typography.Title level 2: 38px line and its margin). */
function TitleBar() {
  return (
    <div className="skeleton-title">
      <Bone size="large" style={{ width: 240, maxWidth: '70vw' }} />
    </div>
  );
}

/** Rows of a table while its first page loads (a row of antd's default Table is 55px tall); `header`: with its header row. */
export function TableSkeleton({ rows = 5, header = false }: { rows?: number; header?: boolean }) {
  return (
    <div className="table-skeleton" data-testid="list-loading" aria-busy="true">
      {header && <div className="table-skeleton-row table-skeleton-header" />}
      {Array.from({ length: rows }, (_, i) => (
        <div className="table-skeleton-row" key={i}>
          <Bone size="small" style={{ width: 96 }} />
          <Bone size="small" style={{ flex: 1 }} />
          <Bone size="small" style={{ width: 72 }} />
        </div>
      ))}
    </div>
  );
}

/** What a route shows while its page's chunk loads: the title and a body shaped like a list, a form or details. */
export function PageSkeleton({ kind = 'list' }: { kind?: 'list' | 'form' | 'details' }) {
  return (
    <div className="page page-skeleton" data-testid="page-skeleton" aria-busy="true">
      <TitleBar />
      {kind === 'list' && (
        <>
          <div className="skeleton-toolbar">
            <Bone style={{ width: 280, maxWidth: '100%' }} />
          </div>
          <TableSkeleton rows={6} />
        </>
      )}
      {kind === 'form' && (
        <div className="plain-card form-card">
          <div className="plain-card-body">
            <Lines title={false} rows={6} />
          </div>
        </div>
      )}
      {kind === 'details' && (
        <div className="plain-card">
          <div className="plain-card-body">
            <Lines title rows={7} />
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * The role area's frame while its chunk loads (after sign-in, or a reload on
 * a role's page): the header bar and the dark menu column where the layout
 * will draw them (CSS: the menu is 200px wide from the large breakpoint, 80px
 * from the medium one, hidden on phones), and a page skeleton.
 */
export function AreaSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="area-skeleton" data-testid="area-skeleton" aria-busy="true">
      {/* The logo where the header draws it (not a link yet): the first contentful paint of a signed-in page. */}
      <div className="area-skeleton-header">
        <span className="logo">
          <span className="logo-mark" aria-hidden>
            §
          </span>
          <span className="logo-text">{t('app.name')}</span>
        </span>
      </div>
      <div className="area-skeleton-sider" />
      <div className="area-skeleton-main app-content">
        <PageSkeleton kind="details" />
      </div>
    </div>
  );
}
