import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import '../dataRights/texts';
import type { CaseDetails } from '../../types/cases';

/** A frozen case's banner: its customer was erased and the file is kept by law (until its retention ends); no change can be made. */
export default function LegalHoldBanner({ hold }: { hold: NonNullable<CaseDetails['legal_hold']> }) {
  const { t } = useTranslation('dataRights');
  const until = hold.until ? t('legalHoldUntil', { day: hold.until.slice(0, 10) }) : '';
  return <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('legalHold', { until })} data-testid="case-legal-hold" />;
}
