import { LawyerRatingsCard } from '../../components/collaboration/Ratings';
import PageTitle from '../../components/PageTitle';

/** The lawyer's own ratings (lawyer ratings/): average, count and each rating. */
export default function LawyerRatingsPage({ titleKey }: { titleKey: string }) {
  return (
    <div className="page" data-testid="lawyer-ratings-page">
      <PageTitle titleKey={titleKey} />
      <LawyerRatingsCard />
    </div>
  );
}
