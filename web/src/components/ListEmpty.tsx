import { Button, Empty, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What a list shows when it has no rows: the one 'Empty' text (spec §2
 * common layout), or, when the last fetch failed, that the list could not
 * be loaded with a retry (the §8 notification has told why) — never a silent
 * empty list.
 */
export default function ListEmpty({ error, onRetry }: { error?: boolean; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (error) {
    return (
      <Result
        status="warning"
        data-testid="list-error"
        title={t('listError.title')}
        extra={
          onRetry ? (
            <Button onClick={onRetry} data-testid="list-retry">
              {t('listError.retry')}
            </Button>
          ) : undefined
        }
      />
    );
  }
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} data-testid="list-empty" />;
}
