import { Alert, Button, QRCode, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  autostartLink,
  cancelBankId,
  collectBankId,
  deviceOf,
  type BankIdDevice,
  type BankIdProgress,
  type BankIdStarted,
} from '../../api/bankid';
import { serverMessages } from '../../api/formErrors';
import { translateServerMessage } from '../../i18n';
import './texts';

interface Props {
  /** Starts the order (sign-in or link). */
  start: (device: BankIdDevice) => Promise<BankIdStarted>;
  /** Polls with the bearer token (a link). */
  signedIn: boolean;
  /** The order completed: the last answer (tokens, or `linked`). */
  onComplete: (progress: BankIdProgress) => void | Promise<void>;
  /** The user closed the panel (the order is cancelled). */
  onClose: () => void;
  /** The user agent, for tests (default: the browser's). */
  userAgent?: string;
}

type View =
  | { kind: 'starting' }
  | { kind: 'pending'; started: BankIdStarted; qr: string; message: string }
  /** `key`: BankID's message (translated as shown); else the server's answer, translated. */
  | { kind: 'failed'; key?: string; messages: string[] }
  | { kind: 'done' };

/**
 * One BankID order, start to end: on a computer the animated QR code (its data
 * comes from the server twice a poll: now and a second later), on a phone a
 * button opening the app on this device; BankID's recommended message for each
 * state; polls every `poll_ms`; cancels the order when closed or left.
 */
export default function BankIdPanel({ start, signedIn, onComplete, onClose, userAgent }: Props) {
  const { t } = useTranslation('bankid');
  // A message BankID may add later: its generic failure text (RFA22, an error key of the server's texts).
  const say = (key: string) => t(`message.${key}`, { defaultValue: translateServerMessage('bankid_rfa22') });
  const device = deviceOf(userAgent ?? navigator.userAgent);
  const [view, setView] = useState<View>({ kind: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const live = useRef<string | null>(null);

  useEffect(() => {
    let stopped = false;
    let timers: ReturnType<typeof setTimeout>[] = [];
    const later = (ms: number, f: () => void) => timers.push(setTimeout(f, ms));
    const fail = (err: unknown) => {
      live.current = null;
      const lines = serverMessages(err);
      setView({ kind: 'failed', messages: lines.length ? lines : [translateServerMessage('bankid_rfa22')] });
    };
    const poll = async (started: BankIdStarted) => {
      if (stopped) return;
      try {
        const p = await collectBankId(started.order_ref, signedIn);
        if (stopped) return;
        if (p.status === 'pending') {
          setView({ kind: 'pending', started, qr: p.qr_data ?? started.qr_data, message: p.message });
          if (p.qr_data_next) later(1000, () => setView((v) => (v.kind === 'pending' ? { ...v, qr: p.qr_data_next ?? v.qr } : v)));
          later(started.poll_ms, () => void poll(started));
        } else if (p.status === 'failed') {
          live.current = null;
          setView({ kind: 'failed', key: p.message, messages: [] });
        } else {
          live.current = null;
          setView({ kind: 'done' });
          await onComplete(p);
        }
      } catch (err) {
        if (!stopped) fail(err);
      }
    };
    setView({ kind: 'starting' });
    start(device)
      .then((started) => {
        if (stopped) {
          void cancelBankId(started.order_ref, signedIn);
          return;
        }
        live.current = started.order_ref;
        setView({ kind: 'pending', started, qr: started.qr_data, message: device === 'qr' ? 'rfa1' : 'rfa13' });
        later(1000, () => setView((v) => (v.kind === 'pending' ? { ...v, qr: started.qr_data_next } : v)));
        later(started.poll_ms, () => void poll(started));
      })
      .catch(fail);
    return () => {
      stopped = true;
      timers.forEach(clearTimeout);
      timers = [];
      // Leaving the page (or closing the panel) cancels a running order.
      if (live.current) void cancelBankId(live.current, signedIn);
      live.current = null;
    };
    // A new attempt restarts; the callbacks are the caller's and stay.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt]);

  return (
    <div className="bankid-panel" data-testid="bankid-panel" data-state={view.kind}>
      <Typography.Title level={4}>{t('panel.title')}</Typography.Title>
      {view.kind === 'pending' && device === 'qr' && (
        <Space orientation="vertical" align="center" style={{ width: '100%' }}>
          <QRCode value={view.qr} type="svg" size={200} data-testid="bankid-qr" data-qr={view.qr} bordered={false} />
          <Typography.Text type="secondary">{t('panel.scan')}</Typography.Text>
        </Space>
      )}
      {view.kind === 'pending' && device === 'this_device' && (
        <Button type="primary" block size="large" href={autostartLink(view.started.auto_start_token)} data-testid="bankid-open-app">
          {t('panel.openApp')}
        </Button>
      )}
      {view.kind === 'pending' && (
        <Typography.Paragraph role="status" aria-live="polite" data-testid="bankid-message" style={{ marginTop: 12 }}>
          {say(view.message)}
        </Typography.Paragraph>
      )}
      {view.kind === 'failed' && (
        <Alert type="error" showIcon title={view.key ? say(view.key) : view.messages.join(' ')} data-testid="bankid-error" style={{ marginBottom: 12 }} />
      )}
      <Space wrap>
        {view.kind === 'failed' && (
          <Button type="primary" onClick={() => setAttempt((n) => n + 1)} data-testid="bankid-retry">
            {t('panel.retry')}
          </Button>
        )}
        <Button onClick={onClose} data-testid="bankid-cancel">
          {t('panel.cancel')}
        </Button>
      </Space>
    </div>
  );
}
