import { Rate, Space, Typography } from 'antd';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { lawyerRatings } from '../../api/collaboration';
import type { Rating } from '../../types/collaboration';
import { formatRating } from '../../format';

/** "4,5" / "4.5": an average, one decimal, in the reader's language. */
export function formatAverage(avg: number, lang: string): string {
  return formatRating(avg, lang);
}

/** The average of `ratings`, one decimal (as the server's). */
export function averageOf(ratings: readonly Rating[]): number | null {
  if (!ratings.length) return null;
  return Math.round((ratings.reduce((a, r) => a + r.stars, 0) / ratings.length) * 10) / 10;
}

/** Stars, "4,5 of 5" and "2 ratings"; "No ratings yet" without any. */
export function RatingSummary({ average, count, testId = 'rating-summary' }: { average: number | null | undefined; count: number; testId?: string }) {
  const { t, i18n } = useTranslation('collaboration');
  if (average == null || count === 0) {
    return (
      <Typography.Text type="secondary" data-testid={testId} data-count={0}>
        {t('ratings.none')}
      </Typography.Text>
    );
  }
  return (
    <Space size={8} wrap data-testid={testId} data-average={average} data-count={count}>
      <Rate disabled allowHalf value={Math.round(average * 2) / 2} style={{ fontSize: 14 }} />
      <Typography.Text strong>{t('ratings.average', { average: formatAverage(average, i18n.language) })}</Typography.Text>
      <Typography.Text type="secondary">({t('ratings.count', { count })})</Typography.Text>
    </Space>
  );
}

/** A lawyer's ratings (their own: no uid; admin: the lawyer's uid), loaded. */
export function useLawyerRatings(lawyerUid?: string): Rating[] | null {
  return useList(() => lawyerRatings(lawyerUid), lawyerUid ?? '').rows;
}

