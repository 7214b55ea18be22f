import { Card, Result, Skeleton, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLegalText } from '../../api/content';
import { useLoad } from '../../api/useList';
import '../../i18n/dates';
import type { LegalKind } from '../../types/content';
import PublicLayout from './PublicLayout';
import { formatDate } from '../../format';

const Markdown = lazy(() => import('../../components/Markdown'));

/** /terms and /privacy: the current version from `public/`, in the language shown; anyone may read it. */
export default function LegalPage({ kind }: { kind: LegalKind }) {
  const { t, i18n } = useTranslation('legal');
  // undefined while it loads; null when none is published (or the read failed).
  const { data, loading } = useLoad(() => fetchLegalText(kind).then((t) => t ?? null), kind);
  const text = loading && data == null ? undefined : data;
  const lang = i18n.language === 'en' ? 'en' : 'sv';
  return (
    <PublicLayout titleKey={kind}>
      <Card className="legal-card" data-testid={`legal-${kind}`}>
        {text === undefined && <Skeleton active />}
        {text === null && <Result status="info" title={t('legal.none')} />}
        {text && (
          <>
            <Typography.Text type="secondary" data-testid="legal-version">
              {t('legal.version', { version: text.version, date: formatDate(text.published_at) })}
            </Typography.Text>
            <Suspense fallback={<Skeleton active />}>
              <Markdown text={text[lang]} testId="legal-text" />
            </Suspense>
          </>
        )}
      </Card>
    </PublicLayout>
  );
}
