import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathFor } from '../../routes/pathFor';
import { averageOf, RatingSummary, useLawyerRatings } from './RatingSummary';

/** The lawyer dashboard's card: their average and count, linking to all their ratings. */
export default function LawyerRatingSummaryCard() {
  const { t } = useTranslation('collaboration');
  const ratings = useLawyerRatings();
  return (
    <Card
      title={t('ratings.title')}
      loading={ratings === null}
      data-testid="dashboard-ratings"
      extra={
        <Link to={pathFor('lawyer', 'lawyerRatings')} data-testid="dashboard-ratings-link">
          {t('ratings.showAll')}
        </Link>
      }
    >
      <RatingSummary average={ratings ? averageOf(ratings) : null} count={ratings?.length ?? 0} />
    </Card>
  );
}
