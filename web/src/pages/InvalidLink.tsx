import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import Link from '../components/Link';

/** Invalid or expired URL screen (spec §8). */
export default function InvalidLink() {
  const { t } = useTranslation('errors');
  return (
    <div data-testid="invalid-url">
      <Result
        status="warning"
        title={t('invalidUrlTitle')}
        subTitle={t('invalidUrlMessage')}
        extra={
          <Link to="/login">
            <Button type="primary">{t('goToLogin')}</Button>
          </Link>
        }
      />
    </div>
  );
}
