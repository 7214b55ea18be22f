/**
 * Video meeting (spec §2 `services/video-meeting/`), for the
 * customer and its contacts with the service: pick a case that has a lawyer,
 * book one of the lawyer's free times (one use of the plan), open the
 * meeting's link, cancel (the time becomes free again).
 */
import './texts';
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Empty, List, Popconfirm, Select, Space, Typography } from 'antd';
import Table from '../../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import Link from '../../../components/Link';
import Loading from '../../../components/Loading';
import { ApiError } from '../../../api/errors';
import { useList } from '../../../api/useList';
import { bookMeeting, cancelMeeting, listBookableCases, listFreeSlots, listMeetings, type Meeting, type Slot } from '../../../api/meetings';
import { translateServerMessage } from '../../../i18n';
import { pathFor, useAreaRole } from '../../../routes/pathFor';
import { isUpcoming, stockholm } from './time';
import { useFeedback } from '../../../layout/feedback';
import PageTitle from '../../../components/PageTitle';

export default function VideoMeetings({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('meetings');
  const { message } = useFeedback();
  const role = useAreaRole();
  const { rows: meetings, reload: loadMeetings } = useList(listMeetings);
  const { rows: cases } = useList(listBookableCases);
  const [caseUid, setCaseUid] = useState<string | undefined>();
  // The free times of the chosen case's lawyer (none asked for until a case is chosen).
  const { rows: slots, reload: loadSlots } = useList(() => listFreeSlots(caseUid!), caseUid ?? null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  // The only case is chosen for the user.
  useEffect(() => {
    if (cases?.length === 1) setCaseUid(cases[0].uid);
  }, [cases]);

  const book = async (slot: Slot) => {
    if (!caseUid) return;
    setBusy(slot.uid);
    setError(null);
    try {
      await bookMeeting({ case_uid: caseUid, slot_uid: slot.uid });
      message.success(t('book.booked'));
      await Promise.all([loadMeetings(), loadSlots()]);
    } catch (err) {
      const key = err instanceof ApiError ? err.body?.message : undefined;
      setError(key ? translateServerMessage(key) : t('book.failed'));
      await loadSlots();
    } finally {
      setBusy(null);
    }
  };

  const cancel = async (m: Meeting) => {
    setBusy(m.uid);
    try {
      await cancelMeeting(m.uid);
      message.success(t('list.cancelled'));
      await loadMeetings();
      if (caseUid) await loadSlots();
    } catch {
      /* notified by the client */
    } finally {
      setBusy(null);
    }
  };

  if (meetings === null || cases === null) return <Loading />;
  const chosen = cases.find((c) => c.uid === caseUid);
  return (
    <div className="page" data-testid="video-meeting-page">
      <PageTitle titleKey={titleKey} />
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Card title={t('book.title')}>
          <Typography.Paragraph type="secondary">{t('book.intro')}</Typography.Paragraph>
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="meeting-error" />}
          {cases.length === 0 ? (
            <Empty description={t('book.noCases')} data-testid="meeting-no-cases" />
          ) : (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Select
                data-testid="meeting-case"
                style={{ width: '100%', maxWidth: 480 }}
                placeholder={t('book.casePlaceholder')}
                showSearch={{ optionFilterProp: 'label' }}
                aria-label={t('book.case')}
                value={caseUid}
                onChange={setCaseUid}
                options={cases.map((c) => ({ value: c.uid, label: `${c.case_number} · ${c.subject} · ${c.lawyer_name}` }))}
              />
              {chosen &&
                (slots === null ? (
                  <Loading />
                ) : (
                  <List
                    data-testid="meeting-slots"
                    locale={{ emptyText: <Empty description={t('book.noSlots')} /> }}
                    dataSource={slots}
                    renderItem={(s) => (
                      <List.Item
                        data-testid={`meeting-slot-${s.uid}`}
                        actions={[
                          <Button key="book" type="primary" loading={busy === s.uid} disabled={busy !== null} onClick={() => void book(s)} data-testid={`meeting-book-${s.uid}`}>
                            {t('book.action')}
                          </Button>,
                        ]}
                      >
                        <List.Item.Meta title={stockholm(s.start)} description={`${t('minutes', { count: s.minutes })} · ${s.lawyer_name}`} />
                      </List.Item>
                    )}
                  />
                ))}
            </Space>
          )}
        </Card>
        <Card title={t('list.title')}>
          <Table<Meeting>
            data-testid="meeting-list"
            rowKey="uid"
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('list.empty')} /> }}
            dataSource={meetings}
            onRow={(m) => ({ 'data-testid': `meeting-row-${m.uid}` }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              { title: t('list.time'), key: 'start', render: (_, m) => stockholm(m.start) },
              { title: t('list.length'), key: 'minutes', render: (_, m) => t('minutes', { count: m.minutes }) },
              { title: t('list.lawyer'), dataIndex: 'lawyer_name' },
              {
                title: t('list.case'),
                key: 'case',
                render: (_, m) => <Link to={pathFor(role, 'caseDetails', { id: m.case_uid })}>{`${m.case_number} · ${m.subject}`}</Link>,
              },
              {
                title: t('list.link'),
                key: 'link',
                render: (_, m) =>
                  isUpcoming(m.start, m.minutes) ? (
                    <a href={m.room_url} target="_blank" rel="noopener noreferrer" data-testid={`meeting-link-${m.uid}`}>
                      {t('list.join')}
                    </a>
                  ) : (
                    t('list.past')
                  ),
              },
              {
                key: 'actions',
                render: (_, m) =>
                  isUpcoming(m.start, m.minutes) && (
                    <Popconfirm
                      title={t('list.cancelConfirm')}
                      okText={t('list.yes')}
                      cancelText={t('list.no')}
                      okButtonProps={{ 'data-testid': 'meeting-cancel-yes' } as Record<string, string>}
                      onConfirm={() => cancel(m)}
                    >
                      <Button danger size="small" loading={busy === m.uid} data-testid={`meeting-cancel-${m.uid}`}>
                        {t('list.cancel')}
                      </Button>
                    </Popconfirm>
                  ),
              },
            ]}
          />
        </Card>
      </Space>
    </div>
  );
}
