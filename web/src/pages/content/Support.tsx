import { PaperClipOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Form, Input, List, Segmented, Select, Space, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useState } from 'react';
import { useMoreList } from '../../api/paging';
import { useList, useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { listCases } from '../../api/cases';
import OneDocumentPicker from '../../components/OneDocumentPicker';
import { answerTicket, closeTicket, createTicket, fetchTicket, fetchTicketCounts, fetchTickets, ticketFileUrl } from '../../api/content';
import { ApiError } from '../../api/errors';
import MessageAlert from '../../components/MessageAlert';
import { LONG_TEXT_MAX_CHARS, SUBJECT_MAX_CHARS } from '../../validation/bounds';
import { translateServerMessage } from '../../i18n';
import { useAreaRole } from '../../routes/pathFor';
import type { Ticket, TicketDetails, TicketStatus } from '../../types/content';
import { TableSkeleton } from '../../components/Skeletons';
import { formatDateTime } from '../../format';
import PageTitle from '../../components/PageTitle';

const STATUS_COLOR: Record<TicketStatus, string> = { open: 'orange', answered: 'blue', closed: 'default' };

export function StatusTag({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('content');
  return (
    <Tag color={STATUS_COLOR[status]} data-testid={`ticket-status-${status}`}>
      {t(`support.status.${status}`)}
    </Tag>
  );
}

const when = (at: string) => formatDateTime(at);

function errorsOf(err: unknown): string[] {
  if (err instanceof ApiError) {
    const fields = Object.values(err.fieldErrors).flat();
    return (fields.length ? fields : [err.body?.message ?? 'validation_failed']).map(translateServerMessage);
  }
  return [String(err)];
}

/** A ticket opened in the list: the message, the answers, and (when allowed) a reply and closing. */
function TicketPanel({ id, onChanged }: { id: number; onChanged: (t: Ticket) => void }) {
  const { t } = useTranslation('content');
  const { data: d, set: setD, reload } = useLoad<TicketDetails>(() => fetchTicket(id), id);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  if (!d) return null;
  const reply = async () => {
    setBusy(true);
    setErrors(null);
    try {
      await answerTicket(id, text);
      setText('');
      const next = await fetchTicket(id);
      setD(next);
      onChanged(next);
    } catch (e) {
      setErrors(errorsOf(e));
    } finally {
      setBusy(false);
    }
  };
  const close = async () => {
    setBusy(true);
    try {
      onChanged(await closeTicket(id));
      await reload();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="ticket-panel" data-testid={`ticket-panel-${id}`}>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{d.message}</Typography.Paragraph>
      {d.attachment && (
        <Button icon={<PaperClipOutlined />} onClick={() => void ticketFileUrl(id).then((u) => window.location.assign(u.url))}>
          {d.attachment.name}
        </Button>
      )}
      <List
        className="ticket-answers"
        header={<strong>{t('support.answers')}</strong>}
        locale={{ emptyText: t('support.noAnswers') }}
        dataSource={d.answers}
        renderItem={(a) => (
          <List.Item data-testid="ticket-answer">
            <List.Item.Meta
              title={
                <Space>
                  {a.by_name}
                  {a.staff && <Tag color="blue">{t('support.staff')}</Tag>}
                  <Typography.Text type="secondary">{when(a.at)}</Typography.Text>
                </Space>
              }
              description={<span style={{ whiteSpace: 'pre-wrap', color: 'inherit' }}>{a.text}</span>}
            />
          </List.Item>
        )}
      />
      <MessageAlert messages={errors} />
      {d.can_answer && (
        <Space.Compact style={{ width: '100%' }}>
          <Input.TextArea
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={LONG_TEXT_MAX_CHARS}
            aria-label={t('support.reply')}
            placeholder={t('support.reply')}
            data-testid={`ticket-reply-${id}`}
          />
        </Space.Compact>
      )}
      <Space style={{ marginTop: 8 }}>
        {d.can_answer && (
          <Button type="primary" loading={busy} disabled={!text.trim()} onClick={() => void reply()} data-testid={`ticket-send-${id}`}>
            {t('support.send')}
          </Button>
        )}
        {d.can_close && (
          <Button danger loading={busy} onClick={() => void close()} data-testid={`ticket-close-${id}`}>
            {t('support.close')}
          </Button>
        )}
      </Space>
    </div>
  );
}

/** The contact form of the customer side: subject, message, optional case and file. */
function NewTicket({ onCreated }: { onCreated: (t: Ticket) => void }) {
  const { t } = useTranslation('content');
  const [form] = Form.useForm<{ subject: string; message: string; case_uid?: string }>();
  const cases =
    useList(() => listCases({ status: 'my' }, null).then((p) => p.results.map((c) => ({ value: c.uid, label: `${c.case_number} · ${c.subject}` })))).rows ?? [];
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const submit = async (v: { subject: string; message: string; case_uid?: string }) => {
    setBusy(true);
    setErrors(null);
    try {
      const created = await createTicket({ ...v, file });
      form.resetFields();
      setFile(null);
      onCreated(created);
    } catch (e) {
      setErrors(errorsOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={<h2 className="card-heading">{t('support.new')}</h2>} className="page-card">
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} data-testid="ticket-form">
        <Form.Item name="subject" label={t('support.subject')} rules={[{ required: true, whitespace: true, message: t('support.subjectRequired') }]}>
          <Input maxLength={SUBJECT_MAX_CHARS} data-testid="ticket-subject" />
        </Form.Item>
        <Form.Item name="message" label={t('support.message')} rules={[{ required: true, whitespace: true, message: t('support.messageRequired') }]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={LONG_TEXT_MAX_CHARS} data-testid="ticket-message" />
        </Form.Item>
        <Form.Item name="case_uid" label={t('support.case')}>
          <Select allowClear options={cases} data-testid="ticket-case" />
        </Form.Item>
        <Form.Item label={t('support.attachment')}>
          <OneDocumentPicker file={file} onFile={setFile} onRefused={setErrors} label={t('support.chooseFile')} />
        </Form.Item>
        <MessageAlert messages={errors} />
        <Button type="primary" htmlType="submit" loading={busy} data-testid="ticket-submit">
          {t('support.submit')}
        </Button>
      </Form>
    </Card>
  );
}

/**
 * Support: the customer side writes tickets and follows its company's with
 * the staff's answers (<prefix>support/); admin sees every ticket, answers
 * and closes them (settings/support/).
 */
export default function Support({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('content');
  const role = useAreaRole();
  const admin = role === 'admin';
  const [status, setStatus] = useState<string>('');
  const { rows, setRows, loading, hasMore, more } = useMoreList((cursor) => fetchTickets(status || undefined, cursor ?? undefined), status);

  const changed = (tk: Ticket) => setRows((old) => old.map((r) => (r.id === tk.id ? { ...r, ...tk } : r)));

  return (
    <div className="page" data-testid="support-page">
      <PageTitle titleKey={titleKey} />
      {!admin && <NewTicket onCreated={(tk) => setRows((old) => [tk, ...old])} />}
      <Card title={<h2 className="card-heading">{admin ? t('support.allTickets') : t('support.myTickets')}</h2>} className="page-card">
        <Segmented
          value={status}
          onChange={(v) => setStatus(String(v))}
          options={[
            { value: '', label: t('support.all') },
            { value: 'open', label: t('support.status.open') },
            { value: 'answered', label: t('support.status.answered') },
            { value: 'closed', label: t('support.status.closed') },
          ]}
          style={{ marginBottom: 16 }}
          data-testid="ticket-filter"
        />
        <Table<Ticket>
          rowKey="id"
          size="middle"
          loading={loading && rows.length > 0}
          dataSource={rows}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: loading ? <TableSkeleton /> : t('support.noTickets') }}
          data-testid="ticket-table"
          expandable={{ expandedRowRender: (r) => <TicketPanel id={r.id} onChanged={changed} /> }}
          columns={[
            { title: '#', dataIndex: 'id', width: 70 },
            { title: t('support.subject'), dataIndex: 'subject' },
            ...(admin ? [{ title: t('support.customer'), dataIndex: 'customer_name' }] : []),
            // The column is 'Case'; 'Case (optional)' is the form's label.
            { title: t('documents.case'), dataIndex: 'case_number', render: (n: string | null) => n ?? '' },
            { title: t('support.statusLabel'), dataIndex: 'status', render: (s: TicketStatus) => <StatusTag status={s} /> },
            { title: t('support.created'), dataIndex: 'created_at', render: when },
            { title: t('support.answersCount'), dataIndex: 'answer_count' },
          ]}
        />
        {hasMore && (
          <Button style={{ marginTop: 16 }} onClick={() => void more()} data-testid="ticket-more">
            {t('support.more')}
          </Button>
        )}
      </Card>
    </div>
  );
}

/** Statistics → Support (customer): the company's tickets by status. */
export function SupportStatistics({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('content');
  const counts = useLoad(fetchTicketCounts).data;
  return (
    <div className="page" data-testid="support-statistics-page">
      <PageTitle titleKey={titleKey} />
      <Card className="page-card">
        <Descriptions bordered column={1} data-testid="support-counts">
          {(['open', 'answered', 'closed'] as const).map((s) => (
            <Descriptions.Item key={s} label={<StatusTag status={s} />}>
              <span data-testid={`support-count-${s}`}>{counts?.[s] ?? 0}</span>
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('support.total')}>
            <strong data-testid="support-count-total">{counts?.total ?? 0}</strong>
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </div>
  );
}
