import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import PublicLayout from './PublicLayout';

/** Public page not built yet, titled with its route. */
export default function PublicPlaceholder({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <PublicLayout titleKey={titleKey}>
      <Card className="public-card" data-testid="page-placeholder" data-route-title={titleKey}>
        <Typography.Title level={2} data-testid="page-title">
          {t(titleKey, { ns: 'routes' })}
        </Typography.Title>
        <Empty description={t('placeholder.comingSoon')} />
        <Link to="/login">{t('public:backToLogin')}</Link>
      </Card>
    </PublicLayout>
  );
}
