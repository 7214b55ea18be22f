import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import './texts';
import { useSession } from '../../store/session';
import ErasurePanel from './ErasurePanel';
import ExportPanel from './ExportPanel';

/** my-data/ (the customer): everything we hold about the company, as one file to download; the request to be forgotten. */
export default function MyDataPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('dataRights');
  const uid = useSession((s) => s.user?.uid);
  return (
    <div className="page" data-testid="my-data-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <Typography.Paragraph style={{ maxWidth: 720 }}>{t('intro')}</Typography.Paragraph>
      {uid && <ExportPanel customerUid={uid} />}
      {uid && <ErasurePanel customerUid={uid} />}
    </div>
  );
}
