import { Button, Card, Form, Input, Rate, Typography } from 'antd';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { caseRating, rateCase } from '../../api/collaboration';
import { applyServerErrors } from '../../api/formErrors';
import type { Role } from '../../auth/roles';
import MessageAlert from '../../components/MessageAlert';
import type { Rating } from '../../types/collaboration';
import type { Case } from '../../types/cases';
import { formatDate } from '../../format';
import { COMMENT_MAX_CHARS } from '../../validation/bounds';


/**
 * The rating card of a closed case (spec §1, §6): the customer (not a
 * contact, not staff) rates once, 1–5 stars and an optional comment; then
 * everyone who sees the case sees the rating. Not shown on open cases.
 */
export default function CaseRating({ c, role }: { c: Pick<Case, 'uid' | 'status'>; role: Role }) {
  if (c.status !== 'Complete') return null;
  return <RatingCard caseUid={c.uid} role={role} />;
}

function RatingCard({ caseUid, role }: { caseUid: string; role: Role }) {
  const { t } = useTranslation('collaboration');
  const loaded = useLoad<Rating | null>(async () => (await caseRating(caseUid)) ?? null, caseUid);
  // undefined while it loads; null: not rated yet (or it could not be read).
  const rating = loaded.loading && loaded.data === null ? undefined : loaded.data;
  const setRating = loaded.set;
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [thanks, setThanks] = useState(false);
  const [form] = Form.useForm<{ stars: number; comment?: string }>();


  const rate = async (v: { stars: number; comment?: string }) => {
    setBusy(true);
    setErrors([]);
    try {
      setRating(await rateCase(caseUid, v.stars, v.comment ?? ''));
      setThanks(true);
    } catch (err) {
      setErrors(applyServerErrors(form, err, ['stars', 'comment']));
    } finally {
      setBusy(false);
    }
  };

  const labels = [1, 2, 3, 4, 5].map((n) => t(`rating.starLabels.${n}`));
  if (rating === undefined) return <Card loading style={{ marginTop: 16 }} />;
  if (rating) {
    return (
      <Card title={role === 'customer' ? t('rating.yours') : t('rating.title')} style={{ marginTop: 16 }} data-testid="case-rating">
        {thanks && (
          <Typography.Paragraph type="success" data-testid="case-rating-thanks">
            {t('rating.thanks')}
          </Typography.Paragraph>
        )}
        <Rate disabled value={rating.stars} tooltips={labels} data-testid="case-rating-stars" data-stars={rating.stars} />
        {rating.comment && <Typography.Paragraph style={{ marginTop: 8, whiteSpace: 'pre-wrap' }}>{rating.comment}</Typography.Paragraph>}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('rating.given', { customer: rating.customer_name, date: formatDate(rating.at) })}
        </Typography.Text>
      </Card>
    );
  }
  // Only the customer itself rates (spec §6); others see that it is not rated yet, contacts nothing.
  if (role === 'customerContact') return null;
  if (role !== 'customer') {
    return (
      <Card title={t('rating.title')} style={{ marginTop: 16 }} data-testid="case-rating">
        <Typography.Text type="secondary">{t('rating.notRated')}</Typography.Text>
      </Card>
    );
  }
  return (
    <Card title={t('rating.rateTitle')} style={{ marginTop: 16 }} data-testid="case-rate">
      <Typography.Paragraph type="secondary">{t('rating.rateIntro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={rate} data-testid="case-rate-form">
        <Form.Item name="stars" label={t('rating.stars')} rules={[{ required: true, type: 'number', min: 1, max: 5, message: t('rating.starsRequired') }]}>
          <Rate tooltips={labels} data-testid="case-rate-stars" />
        </Form.Item>
        <Form.Item name="comment" label={t('rating.comment')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={COMMENT_MAX_CHARS} data-testid="case-rate-comment" />
        </Form.Item>
        <MessageAlert messages={errors} testId="case-rate-errors" />
        <Button type="primary" htmlType="submit" loading={busy} data-testid="case-rate-submit">
          {t('rating.submit')}
        </Button>
      </Form>
    </Card>
  );
}
