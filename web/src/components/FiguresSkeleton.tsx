/**
 * The dashboard's figures while they load: the same grid of
 * cards as DashboardFigures draws, so nothing below jumps when they arrive.
 * Drawn with components/Skeletons.tsx's CSS blocks (antd's Skeleton is not on
 * the dashboard's budget), in cards drawn as antd's small Card
 * (components/PlainCard.tsx: no Tabs).
 */
import { PlainCol, PlainRow } from './plain/PlainGrid';
import { Bone, Lines } from './Skeletons';
import { PlainCard } from './PlainCard';
import { GUTTER } from '../config/constants';

/** One figure card (Card size small around a Statistic). */
function FigureCard() {
  return (
    // A Statistic in a small card: 93px (its label on one line).
    <PlainCard size="small" style={{ height: 93 }}>
      <div>
        <Bone size="small" style={{ width: 120, minWidth: 0, height: 16 }} />
      </div>
      <div style={{ marginTop: 12 }}>
        <Bone style={{ width: 64, minWidth: 0, height: 28 }} />
      </div>
    </PlainCard>
  );
}

/** A card with a title and a few list rows (hours, top lawyers, deadlines, recent cases). */
function ListCard({ rows }: { rows: number }) {
  return (
    // A small card with a title and a short list: about 118px.
    <PlainCard size="small" style={{ height: 118 }} title={<Bone size="small" style={{ width: 160, minWidth: 0, height: 16 }} />}>
      <Lines rows={rows} title={false} lastWidth="100%" />
    </PlainCard>
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
    <PlainRow gutter={[GUTTER, GUTTER]} style={{ marginTop: GUTTER }} data-testid="dashboard-figures-loading" aria-busy="true">
      {Array.from({ length: shape.figures }, (_, i) => (
        <PlainCol xs={12} md={8} xl={6} key={`f${i}`}>
          <FigureCard />
        </PlainCol>
      ))}
      {Array.from({ length: shape.lists }, (_, i) => (
        <PlainCol xs={24} md={12} key={`l${i}`}>
          <ListCard rows={1} />
        </PlainCol>
      ))}
    </PlainRow>
  );
}
