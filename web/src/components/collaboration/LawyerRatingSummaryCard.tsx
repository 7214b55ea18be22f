import Skeleton from 'antd/es/skeleton';
import { PlainCard } from '../PlainCard';
import { useTranslation } from 'react-i18next';
import Link from '../Link';
import { pathFor } from '../../routes/pathFor';
import { averageOf, RatingSummary, useLawyerRatings } from './RatingSummary';

/** The card's height (its title and one summary line): also its placeholder's while it loads (pages/Dashboard.tsx). */
const RATING_CARD_HEIGHT = 127;

/** The lawyer dashboard's card: their average and count, linking to all their ratings. */
export default function LawyerRatingSummaryCard() {
  const { t } = useTranslation('collaboration');
  const ratings = useLawyerRatings();
  return (
    <PlainCard
      title={t('ratings.title')}
      // The loaded card's height while loading too (not antd's taller loading card): nothing below moves.
      style={{ minHeight: RATING_CARD_HEIGHT }}
      data-testid="dashboard-ratings"
      extra={
        <Link to={pathFor('lawyer', 'lawyerRatings')} data-testid="dashboard-ratings-link">
          {t('ratings.showAll')}
        </Link>
      }
    >
      {ratings === null ? (
        <Skeleton.Input active size="small" style={{ height: 22, width: 160 }} />
      ) : (
        <RatingSummary average={averageOf(ratings)} count={ratings.length} />
      )}
    </PlainCard>
  );
}
