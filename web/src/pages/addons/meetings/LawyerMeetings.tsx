/**
 * The lawyer's video meetings: offer times (start in
 * Swedish time, 30/45/60 minutes, within the next 90 days; the server
 * refuses overlaps), remove a free one, see the booked ones (customer, case,
 * time, link) and cancel one (the customer is notified).
 */
import './texts';
import { useState } from 'react';
import { useList } from '../../../api/useList';
import { Alert, Button, Card, DatePicker, Empty, Form, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import Table from '../../../components/ResponsiveTable';
import type { Dayjs } from 'dayjs';
import '../../../i18n/dates';
import { useTranslation } from 'react-i18next';
import Link from '../../../components/Link';
import Loading from '../../../components/Loading';
import { ApiError } from '../../../api/errors';
import { lawyerCancelMeeting, listLawyerSlots, offerSlot, removeSlot, type Slot } from '../../../api/meetings';
import { translateServerMessage } from '../../../i18n';
import { pathFor, useAreaRole } from '../../../routes/pathFor';
import { fromStockholm, isUpcoming, nowInStockholm, stockholm } from './time';
import { useFeedback } from '../../../layout/feedback';
import PageTitle from '../../../components/PageTitle';

const LENGTHS = [30, 45, 60];

export default function LawyerMeetings({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('meetings');
  const { t: tr } = useTranslation();
  const { message } = useFeedback();
  const role = useAreaRole();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [form] = Form.useForm<{ start: Dayjs; minutes: number }>();
  const { rows: slots, reload: load } = useList<Slot>(listLawyerSlots);

  const offer = async (v: { start: Dayjs; minutes: number }) => {
    setBusy('offer');
    setError(null);
    try {
      await offerSlot({ start: fromStockholm(v.start), minutes: v.minutes });
      message.success(t('offer.added'));
      form.resetFields(['start']);
      await load();
    } catch (err) {
      const key = err instanceof ApiError ? (Object.values(err.fieldErrors).flat()[0] ?? err.body?.message) : undefined;
      setError(key ? translateServerMessage(key) : t('offer.failed'));
    } finally {
      setBusy(null);
    }
  };

  const act = async (uid: string, call: () => Promise<unknown>, done: string) => {
    setBusy(uid);
    try {
      await call();
      message.success(done);
      await load();
    } catch {
      /* notified by the client */
    } finally {
      setBusy(null);
    }
  };

  if (slots === null) return <Loading />;
  const now = nowInStockholm();
  return (
    <div className="page" data-testid="lawyer-meetings-page">
      <PageTitle titleKey={titleKey} />
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Card title={t('offer.title')}>
          <Typography.Paragraph type="secondary">{t('offer.intro')}</Typography.Paragraph>
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="offer-error" />}
          <Form form={form} layout="inline" initialValues={{ minutes: 30 }} onFinish={offer} style={{ rowGap: 12 }}>
            <Form.Item name="start" label={t('offer.start')} rules={[{ required: true, message: tr('validation.required', { defaultValue: t('offer.start') }) }]}>
              <DatePicker
                data-testid="offer-start"
                showTime={{ format: 'HH:mm', minuteStep: 5 }}
                format="YYYY-MM-DD HH:mm"
                showNow={false}
                disabledDate={(d) => d.isBefore(now, 'day') || d.isAfter(now.add(90, 'day'), 'day')}
              />
            </Form.Item>
            <Form.Item name="minutes" label={t('offer.length')}>
              <Select data-testid="offer-minutes" style={{ width: 110 }} options={LENGTHS.map((m) => ({ value: m, label: t('minutes', { count: m }) }))} />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={busy === 'offer'} data-testid="offer-submit">
                {t('offer.action')}
              </Button>
            </Form.Item>
          </Form>
        </Card>
        <Card title={t('list.lawyerTitle')}>
          <Table<Slot>
            data-testid="lawyer-slot-list"
            rowKey="uid"
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('list.empty')} /> }}
            dataSource={slots}
            onRow={(s) => ({ 'data-testid': `slot-row-${s.uid}` }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              { title: t('list.time'), key: 'start', render: (_, s) => stockholm(s.start) },
              { title: t('list.length'), key: 'minutes', render: (_, s) => t('minutes', { count: s.minutes }) },
              {
                title: t('list.status'),
                key: 'status',
                render: (_, s) =>
                  !isUpcoming(s.start, s.minutes) ? <Tag>{t('list.past')}</Tag> : s.meeting ? <Tag color="blue">{t('list.bookedStatus')}</Tag> : <Tag color="green">{t('list.free')}</Tag>,
              },
              { title: t('list.customer'), key: 'customer', render: (_, s) => s.meeting?.customer_name ?? '' },
              {
                title: t('list.case'),
                key: 'case',
                render: (_, s) => s.meeting && <Link to={pathFor(role, 'caseDetails', { id: s.meeting.case_uid })}>{`${s.meeting.case_number} · ${s.meeting.subject}`}</Link>,
              },
              {
                title: t('list.link'),
                key: 'link',
                render: (_, s) =>
                  s.meeting &&
                  isUpcoming(s.start, s.minutes) && (
                    <a href={s.meeting.room_url} target="_blank" rel="noopener noreferrer" data-testid={`slot-link-${s.uid}`}>
                      {t('list.join')}
                    </a>
                  ),
              },
              {
                key: 'actions',
                render: (_, s) =>
                  isUpcoming(s.start, s.minutes) &&
                  (s.meeting ? (
                    <Popconfirm
                      title={t('list.cancelConfirm')}
                      okText={t('list.yes')}
                      cancelText={t('list.no')}
                      okButtonProps={{ 'data-testid': 'slot-cancel-yes' } as Record<string, string>}
                      onConfirm={() => act(s.uid, () => lawyerCancelMeeting(s.uid), t('list.cancelled'))}
                    >
                      <Button danger size="small" loading={busy === s.uid} data-testid={`slot-cancel-${s.uid}`}>
                        {t('list.cancel')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Popconfirm
                      title={t('list.removeConfirm')}
                      okText={t('list.yes')}
                      cancelText={t('list.no')}
                      okButtonProps={{ 'data-testid': 'slot-remove-yes' } as Record<string, string>}
                      onConfirm={() => act(s.uid, () => removeSlot(s.uid), t('list.removed'))}
                    >
                      <Button size="small" loading={busy === s.uid} data-testid={`slot-remove-${s.uid}`}>
                        {t('list.remove')}
                      </Button>
                    </Popconfirm>
                  )),
              },
            ]}
          />
        </Card>
      </Space>
    </div>
  );
}
