import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import './texts';
import { useSession } from '../../store/session';
import ErasurePanel from './ErasurePanel';
import ExportPanel from './ExportPanel';
import PageTitle from '../../components/PageTitle';

/** my-data/ (the customer): everything we hold about the company or the person, as one file to download; the request to be forgotten. */
export default function MyDataPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('dataRights');
  const uid = useSession((s) => s.user?.uid);
  // A private customer is addressed as the person it is; a company (or a
  // type not known yet) as the company.
  const person = useSession((s) => s.services.customer_type === 'Individual');
  const context = person ? 'person' : undefined;
  return (
    <div className="page" data-testid="my-data-page">
      <PageTitle titleKey={titleKey} />
      <Typography.Paragraph style={{ maxWidth: 720 }}>{t('intro', { context })}</Typography.Paragraph>
      {uid && <ExportPanel customerUid={uid} person={person} />}
      {uid && <ErasurePanel customerUid={uid} person={person} />}
    </div>
  );
}
