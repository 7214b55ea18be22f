import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** 'Page Not Found' with a Go back button (spec §2, §8). */
export default function NotFound({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation('errors');
  const navigate = useNavigate();
  const title = t('pageNotFoundTitle');
  // Standalone (an unknown address outside the areas), the browser's tab names it in the reader's language; inside
  // an area, the area titles its pages.
  useEffect(() => {
    if (!embedded) document.title = `${title} | ${t('app.name', { ns: 'common' })}`;
  }, [embedded, title, t]);
  const goBack = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/', { replace: true });
  };
  return (
    <div className={embedded ? 'page' : 'page-center'} data-testid="not-found">
      <Result
        status="404"
        title={<span data-testid="not-found-title">{title}</span>}
        subTitle={t('pageNotFoundMessage')}
        extra={
          <Button type="primary" onClick={goBack} data-testid="not-found-back">
            {t('goBack')}
          </Button>
        }
      />
    </div>
  );
}
