/**
 * Skeletons shown instead of blank space while a page, a list's first page or
 * a dashboard's figures load (issue 20 item 4): shaped and sized like what
 * will appear, so nothing below them jumps when it does. antd's Skeleton is
 * already in the entry chunk (Card uses it), so these add no weight there.
 */
import { Card, Col, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { GUTTER } from '../config/constants';

/** The page title's place (Typography.Title level 2: 38px line and its margin). */
function TitleBar() {
  return (
    <div className="skeleton-title">
      <Skeleton.Input active size="large" style={{ width: 240, maxWidth: '70vw' }} />
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
          <Skeleton.Input active size="small" style={{ width: 96 }} />
          <Skeleton.Input active size="small" block />
          <Skeleton.Input active size="small" style={{ width: 72 }} />
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
            <Skeleton.Input active style={{ width: 280, maxWidth: '100%' }} />
          </div>
          <TableSkeleton rows={6} />
        </>
      )}
      {kind === 'form' && (
        <Card className="form-card">
          <Skeleton active title={false} paragraph={{ rows: 6 }} />
        </Card>
      )}
      {kind === 'details' && (
        <Card>
          <Skeleton active paragraph={{ rows: 7 }} />
        </Card>
      )}
    </div>
  );
}

/** One figure card (Card size small around a Statistic). */
function FigureCard() {
  return (
    // A Statistic in a small card: 93px (its label on one line).
    <Card size="small" style={{ height: 93 }}>
      <div>
        <Skeleton.Input active size="small" style={{ width: 120, minWidth: 0, height: 16 }} />
      </div>
      <div style={{ marginTop: 12 }}>
        <Skeleton.Input active style={{ width: 64, minWidth: 0, height: 28 }} />
      </div>
    </Card>
  );
}

/** A card with a title and a few list rows (hours, top lawyers, deadlines, recent cases). */
function ListCard({ rows }: { rows: number }) {
  return (
    // A small card with a title and a short list: about 118px.
    <Card size="small" style={{ height: 118 }} title={<Skeleton.Input active size="small" style={{ width: 160, height: 16 }} />}>
      <Skeleton active title={false} paragraph={{ rows, width: '100%' }} />
    </Card>
  );
}

/** How many figure cards and list cards a role's dashboard has (DashboardFigures). */
const SHAPE: Record<string, { figures: number; lists: number }> = {
  admin: { figures: 8, lists: 3 },
  lawyer: { figures: 3, lists: 3 },
  sales: { figures: 5, lists: 0 },
  customer: { figures: 3, lists: 2 },
  customerContact: { figures: 3, lists: 2 },
};

/** The dashboard's figures while they load: the same grid of cards as DashboardFigures draws. */
export function FiguresSkeleton({ role }: { role: string }) {
  const shape = SHAPE[role] ?? { figures: 4, lists: 0 };
  return (
    <Row gutter={[GUTTER, GUTTER]} style={{ marginTop: GUTTER }} data-testid="dashboard-figures-loading" aria-busy="true">
      {Array.from({ length: shape.figures }, (_, i) => (
        <Col xs={12} md={8} xl={6} key={`f${i}`}>
          <FigureCard />
        </Col>
      ))}
      {Array.from({ length: shape.lists }, (_, i) => (
        <Col xs={24} md={12} key={`l${i}`}>
          <ListCard rows={1} />
        </Col>
      ))}
    </Row>
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
