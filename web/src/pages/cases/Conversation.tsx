import { Alert, Button, Card, Empty, Input, Space, Tag, Typography, Upload } from 'antd';
import { CheckOutlined, DownloadOutlined, PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { browser, DOCUMENT_ACCEPT } from '../../api/caseDocuments';
import { getConversation, messageFileUrl, sendMessage } from '../../api/collaboration';
import { ApiError } from '../../api/errors';
import { notificationPollMs } from '../../api/notificationCounts';
import type { Role } from '../../auth/roles';
import { relativeTimeOf } from '../../components/collaboration/notificationView';
import '../../components/collaboration/collaboration.css';
import { translateServerMessage } from '../../i18n';
import { useAreaRole } from '../../routes/pathFor';
import { useSession } from '../../store/session';
import type { Conversation as ConversationPage, MessageView } from '../../types/collaboration';
import { formatSize, refusal } from './CaseDocuments';
import { LONG_TEXT_MAX_CHARS } from '../../validation/bounds';
import { formatDateTime } from '../../format';

/** The longest message the server takes (shared::domain::message::TEXT_MAX_CHARS). */
export const MESSAGE_MAX_CHARS = LONG_TEXT_MAX_CHARS;

type T = (key: string, opts?: Record<string, unknown>) => string;

/** Why the caller reads but does not write (spec §6, §8): staff, a closed case, a missing permission. */
export function readOnlyReason(t: T, exists: (key: string) => boolean, role: Role, key: string | null): string {
  if (role === 'admin' || role === 'sales') return t('conversation.staffReadOnly');
  if (key && exists(`conversation.readOnly.${key}`)) return t(`conversation.readOnly.${key}`);
  return key ? translateServerMessage(key) : t('conversation.readOnlyGeneric');
}

/** Messages in time order, each once (a newer copy replaces an older one: its read state). */
function merged(a: MessageView[], b: MessageView[]): MessageView[] {
  const byId = new Map<string, MessageView>();
  for (const m of [...a, ...b]) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => (x.at === y.at ? x.id.localeCompare(y.id) : x.at < y.at ? -1 : 1));
}

/**
 * The conversation of a case (spec §1, §6): newest at the bottom, older pages
 * on scrolling up, a message with an optional file (the documents' types and
 * size), files downloadable, "read" under one's own messages once the other
 * side has seen them. Parties write while the case is in progress; staff and
 * everyone else read, with the reason shown. Refreshed at the polling
 * interval; reached at `#conversation`.
 */
export default function Conversation({ caseUid }: { caseUid: string }) {
  const { t, i18n } = useTranslation('collaboration');
  const { t: td } = useTranslation('caseDocuments');
  const role = useAreaRole();
  const me = useSession((s) => s.user?.uid ?? null);
  const location = useLocation();
  const [messages, setMessages] = useState<MessageView[] | null>(null);
  const [older, setOlder] = useState<string | null>(null);
  const [writable, setWritable] = useState<{ can: boolean; because: string | null } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const cardRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  /** Keep the view at the bottom (new messages) unless the reader scrolled up. */
  const atBottom = useRef(true);
  /** After older messages were put above: where the reader was, from the bottom. */
  const keepFromBottom = useRef<number | null>(null);

  const apply = useCallback((c: ConversationPage, first: boolean) => {
    setMessages((prev) => (first || !prev ? c.messages : merged(prev, c.messages)));
    if (first) setOlder(c.older ?? null);
    setWritable({ can: c.can_write, because: c.cannot_write_because ?? null });
  }, []);

  useEffect(() => {
    let live = true;
    atBottom.current = true;
    setMessages(null);
    getConversation(caseUid)
      .then((c) => live && apply(c, true))
      .catch(() => live && setMessages([]));
    const id = setInterval(() => {
      getConversation(caseUid)
        .then((c) => live && apply(c, false))
        .catch(() => undefined);
    }, notificationPollMs());
    return () => {
      live = false;
      clearInterval(id);
    };
  }, [caseUid, apply]);

  // Bottom on first show and on new messages; the same place after older ones came in above.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el || !messages) return;
    if (keepFromBottom.current != null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages]);

  // Opened at #conversation (a notification's link): bring the panel into view.
  const loaded = messages !== null;
  useEffect(() => {
    if (loaded && location.hash === '#conversation') cardRef.current?.scrollIntoView?.({ block: 'start' });
  }, [loaded, location.hash, location.key]);

  const loadOlder = async () => {
    if (!older || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const c = await getConversation(caseUid, older);
      const el = listRef.current;
      if (el) keepFromBottom.current = el.scrollHeight - el.scrollTop;
      setMessages((prev) => merged(c.messages, prev ?? []));
      setOlder(c.older ?? null);
    } catch {
      /* notified by the client */
    } finally {
      setLoadingOlder(false);
    }
  };

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 40 && older && !loadingOlder) void loadOlder();
  };

  const send = async () => {
    const body = text.trim();
    if (!body && !file) return;
    setSending(true);
    setErrors([]);
    try {
      const m = await sendMessage(caseUid, body, file);
      atBottom.current = true;
      setMessages((prev) => merged(prev ?? [], [m]));
      setText('');
      setFile(null);
    } catch (err) {
      // API errors are shown by the one §8 notification; a failed PUT to storage is not an API call.
      if (!(err instanceof ApiError) && file) setErrors([t('conversation.uploadFailed', { name: file.name })]);
    } finally {
      setSending(false);
    }
  };

  const download = async (m: MessageView) => {
    if (!m.attachment) return;
    try {
      const { url } = await messageFileUrl(caseUid, m.attachment.key, m.attachment.name);
      browser.open(url);
    } catch {
      /* notified by the client */
    }
  };

  const lang = i18n.language;
  const canWrite = !!writable?.can;
  return (
    <div ref={cardRef} id="conversation" style={{ scrollMarginTop: 90 }}>
      <Card title={t('conversation.title')} style={{ marginTop: 16 }} loading={!loaded} data-testid="case-conversation">
        {writable && !canWrite && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="conversation-read-only"
            data-reason={writable.because ?? ''}
            title={readOnlyReason(t, (k) => i18n.exists(k, { ns: 'collaboration' }), role, writable.because)}
          />
        )}
        <div className="conversation-list" ref={listRef} onScroll={onScroll} data-testid="conversation-list" aria-live="polite">
          {older ? (
            <Button type="link" size="small" onClick={() => void loadOlder()} loading={loadingOlder} data-testid="conversation-older" style={{ alignSelf: 'center' }}>
              {loadingOlder ? t('conversation.loadingOlder') : t('conversation.older')}
            </Button>
          ) : (
            messages &&
            messages.length > 0 && (
              <Typography.Text type="secondary" style={{ alignSelf: 'center', fontSize: 12 }} data-testid="conversation-start">
                {t('conversation.start')}
              </Typography.Text>
            )
          )}
          {messages?.length === 0 && (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={canWrite ? t('conversation.emptyCanWrite') : t('conversation.empty')} />
          )}
          {messages?.map((m) => {
            const own = m.by === me;
            return (
              <div key={m.id} className={own ? 'conversation-message conversation-message-own' : 'conversation-message'} data-testid="conversation-message" data-own={own ? 'true' : 'false'}>
                <Typography.Text type="secondary" className="conversation-meta">
                  {own ? t('conversation.you') : m.by_name} ·{' '}
                  <time dateTime={m.at} title={formatDateTime(m.at)}>
                    {relativeTimeOf(m.at, lang)}
                  </time>
                </Typography.Text>
                <div className="conversation-bubble">
                  {m.text && <span data-testid="conversation-text">{m.text}</span>}
                  {m.attachment && (
                    <div>
                      <Button
                        type="link"
                        size="small"
                        icon={<DownloadOutlined />}
                        style={{ paddingInline: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
                        onClick={() => void download(m)}
                        aria-label={t('conversation.download', { name: m.attachment.name })}
                        data-testid={`conversation-file-${m.attachment.name}`}
                      >
                        {m.attachment.name} ({formatSize(m.attachment.size, lang)})
                      </Button>
                    </div>
                  )}
                </div>
                {own && (
                  <Typography.Text type="secondary" className="conversation-status" data-testid="conversation-status" data-read={m.read_by_other ? 'true' : 'false'}>
                    <CheckOutlined /> {m.read_by_other ? t('conversation.read') : t('conversation.sent')}
                  </Typography.Text>
                )}
              </div>
            );
          })}
        </div>
        {canWrite && (
          <div className="conversation-compose" data-testid="conversation-compose">
            <Input.TextArea
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={t('conversation.placeholder')}
              autoSize={{ minRows: 2, maxRows: 6 }}
              maxLength={MESSAGE_MAX_CHARS}
              aria-label={t('conversation.placeholder')}
              data-testid="conversation-input"
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send();
              }}
            />
            {errors.length > 0 && <Alert type="error" showIcon title={errors.join(' ')} data-testid="conversation-errors" />}
            <div className="conversation-compose-actions">
              <Space wrap size={8}>
                <Upload
                  accept={DOCUMENT_ACCEPT}
                  showUploadList={false}
                  beforeUpload={(f) => {
                    const problem = refusal(td, f);
                    setErrors(problem ? [problem] : []);
                    if (!problem) setFile(f);
                    return false;
                  }}
                >
                  <Button icon={<PaperClipOutlined />} data-testid="conversation-attach">
                    {t('conversation.attach')}
                  </Button>
                </Upload>
                {file && (
                  <Tag closable onClose={() => setFile(null)} closeIcon={<span aria-label={t('conversation.removeFile', { name: file.name })}>×</span>} data-testid="conversation-file">
                    {file.name}
                  </Tag>
                )}
              </Space>
              <Button type="primary" icon={<SendOutlined />} onClick={() => void send()} loading={sending} disabled={!text.trim() && !file} data-testid="conversation-send">
                {t('conversation.send')}
              </Button>
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('conversation.hint')}
            </Typography.Text>
          </div>
        )}
      </Card>
    </div>
  );
}
