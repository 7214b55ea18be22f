/**
 * The registration page's done screen (antd's Result): loaded with the first
 * submit, not before the form is usable (the page's 200 KiB budget).
 */
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import Link from '../../../components/Link';

export default function RegistrationDone() {
  const { t } = useTranslation('registration');
  return (
    <Result
      status="success"
      title={t('successTitle')}
      subTitle={<span data-testid="registration-success">{t('successText')}</span>}
      extra={
        <Link to="/login">
          <Button type="primary">{t('toLogin')}</Button>
        </Link>
      }
    />
  );
}
