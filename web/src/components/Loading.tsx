import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export default function Loading({ fullscreen = false }: { fullscreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={fullscreen ? 'loading loading-fullscreen' : 'loading'} data-testid="loading">
      <Spin size="large" description={t('loading')} />
    </div>
  );
}
