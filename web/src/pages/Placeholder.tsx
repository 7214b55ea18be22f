import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import PageTitle from '../components/PageTitle';

/** Shared page for routes not built yet: titled with the (translated) route title. */
export default function Placeholder({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="page-placeholder" data-route-title={titleKey}>
      <PageTitle titleKey={titleKey} />
      <Card>
        <Empty description={t('placeholder.comingSoon')} />
      </Card>
    </div>
  );
}
