import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LawyerRatingsCard } from '../../components/collaboration/Ratings';

/** The lawyer's own ratings (lawyer ratings/): average, count and each rating. */
export default function LawyerRatingsPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="lawyer-ratings-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <LawyerRatingsCard />
    </div>
  );
}
