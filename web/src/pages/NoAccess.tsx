import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Access prohibited screen (spec §8). */
export default function NoAccess() {
  const { t } = useTranslation('errors');
  const navigate = useNavigate();
  return (
    <div className="page-center" data-testid="no-access">
      <Result
        status="403"
        title={t('noAccessTitle')}
        subTitle={t('noAccessMessage')}
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('goHome')}
          </Button>
        }
      />
    </div>
  );
}
