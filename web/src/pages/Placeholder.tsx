import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Shared page for routes not built yet: titled with the (translated) route title. */
export default function Placeholder({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="page-placeholder" data-route-title={titleKey}>
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <Card>
        <Empty description={t('placeholder.comingSoon')} />
      </Card>
    </div>
  );
}
