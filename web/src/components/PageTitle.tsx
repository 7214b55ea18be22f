import Typography from 'antd/es/typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A role area's page heading: the route's title (`routes` namespace), with what the page adds after it. */
export default function PageTitle({ titleKey, children }: { titleKey: string; children?: ReactNode }) {
  const { t } = useTranslation('routes');
  return (
    <Typography.Title level={2} data-testid="page-title">
      {t(titleKey)}
      {children}
    </Typography.Title>
  );
}
