import { Alert, Button, Card, Form, Input, QRCode, Radio, Result, Space, Tag, Typography } from 'antd';
import { CopyOutlined, DownloadOutlined, SafetyOutlined } from '@ant-design/icons';
import { useState, type ReactNode } from 'react';
import type { FormInstance } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { confirmTotp, disableTotp, fetchTwoFactorStatus, setTwoFactorEnabled, startTotpSetup } from '../../api/auth';
import { useLoad } from '../../api/useList';
import type { TotpSetup, TwoFactorMethod, TwoFactorStatus } from '../../types/auth';
import { applyServerErrors, isInlineError } from '../../api/formErrors';
import { normalizeCode, twoFactorCodeRules } from '../../validation/auth';
import { signOutLocally } from '../../auth/flow';
import Loading from '../../components/Loading';
import MessageAlert from '../../components/MessageAlert';
import { TWO_FACTOR_CODE_LENGTH } from '../../config/constants';
import { translateServerMessage } from '../../i18n';
import { setAuth } from '../../store/session';
import { saveFile } from '../../download';
import { message as globalMessage } from '../../layout/notifier';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';

type Choice = 'off' | TwoFactorMethod;

type Panel =
  | { kind: 'none' }
  /** Enrolling an authenticator app: QR code, secret, first code. */
  | { kind: 'setup'; setup: TotpSetup }
  /** Enrolled: the recovery codes, shown this once. */
  | { kind: 'recovery'; codes: string[] }
  /** Removing the authenticator app (then, for 'email', turning the e-mailed code on). */
  | { kind: 'disable'; then: 'off' | 'email' }
  /** Turning the e-mailed code off: the current password first. */
  | { kind: 'emailOff' };

function choiceOf(status: TwoFactorStatus): Choice {
  return status.enabled ? (status.method === 'totp' ? 'totp' : 'email') : 'off';
}

/** The base32 secret in groups of four, easier to type. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * <prefix>/update-2fa: two-factor sign-in Off, by e-mailed code, or by an
 * authenticator app (TOTP). Spec §4: after turning the e-mailed code on the
 * user must log in again (the server has ended every session), so the session
 * is cleared and the user sent to /login. Enrolling an app ends the other
 * sessions; this one continues with the tokens the confirmation returns, and
 * the recovery codes are shown once. Removing the app needs the password or a
 * code.
 */
/** A panel's form: the server's message above it, its fields, the submit and cancel buttons; disabled while busy. */
function PanelForm<V extends object>({
  form,
  name,
  error,
  errorTestId,
  onFinish,
  busy,
  submit,
  onCancel,
  children,
}: {
  form: FormInstance<V>;
  name: string;
  error: string[] | null;
  errorTestId: string;
  onFinish: (values: V) => void;
  busy: boolean;
  submit: { label: string; testId: string; danger?: boolean };
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('settings');
  return (
    <>
      <MessageAlert messages={error} testId={errorTestId} />
      <Form<V> form={form} layout="vertical" name={name} requiredMark={false} onFinish={onFinish} disabled={busy}>
        {children}
        <Space>
          <Button type="primary" danger={submit.danger} htmlType="submit" loading={busy} data-testid={submit.testId}>
            {submit.label}
          </Button>
          <Button onClick={onCancel} data-testid="totp-cancel">
            {t('twoFactorSettings.cancel')}
          </Button>
        </Space>
      </Form>
    </>
  );
}

export default function TwoFactorSettings({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation(['settings', 'account'], { nsMode: 'fallback' });
  const { message } = useFeedback();
  const read = useLoad<TwoFactorStatus>(() =>
    fetchTwoFactorStatus().then((s) => ({ enabled: !!s?.enabled, method: s?.method ?? 'email', recovery_codes_left: s?.recovery_codes_left ?? 0 })),
  );
  const { data: status, set: setStatus } = read;
  // The API client has shown the error; offer to try again (a spinner while the retry reads).
  const loadFailed = read.error && !read.loading;
  const [busy, setBusy] = useState(false);
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [formError, setFormError] = useState<string[] | null>(null);
  const [confirmForm] = Form.useForm<{ code: string }>();
  const [disableForm] = Form.useForm<{ password?: string; code?: string }>();
  const [emailOffForm] = Form.useForm<{ password: string }>();

  const reload = () => void read.reload();

  /** Turning the e-mailed code on ends every session: no more calls with this token. */
  const enableEmail = async () => {
    const s = await setTwoFactorEnabled(true);
    if (s?.enabled) {
      // Shown on /login after signing out: antd's global message, as the area's App (and its messages) unmount with the area.
      void globalMessage.success(translateServerMessage('two_factor_enabled'), 6);
      signOutLocally();
    }
  };

  const choose = async (next: Choice) => {
    if (!status || next === choiceOf(status)) return;
    setFormError(null);
    const current = choiceOf(status);
    if (current === 'totp') {
      // The app is removed only with proof (password or code).
      setPanel({ kind: 'disable', then: next === 'email' ? 'email' : 'off' });
      disableForm.resetFields();
      return;
    }
    setBusy(true);
    try {
      if (next === 'totp') {
        const setup = await startTotpSetup();
        confirmForm.resetFields();
        setPanel({ kind: 'setup', setup });
      } else if (next === 'email') {
        await enableEmail();
      } else {
        // Turning the e-mailed code off needs the current password.
        emailOffForm.resetFields();
        setPanel({ kind: 'emailOff' });
      }
    } catch {
      /* the API client has shown the error */
    } finally {
      setBusy(false);
    }
  };

  const onConfirm = async ({ code }: { code: string }) => {
    setBusy(true);
    setFormError(null);
    try {
      const done = await confirmTotp(normalizeCode(code));
      // Other sessions have ended; this one continues with the new tokens.
      if (done?.access_token) {
        setAuth({ access_token: done.access_token, refresh_token: done.refresh_token, expires_in: done.expires_in, token_type: done.token_type });
      }
      setPanel({ kind: 'recovery', codes: done?.recovery_codes ?? [] });
      setStatus({ enabled: true, method: 'totp', recovery_codes_left: done?.recovery_codes?.length ?? 0 });
    } catch (err) {
      if (isInlineError(err)) setFormError(applyServerErrors(confirmForm, err, ['code']));
    } finally {
      setBusy(false);
    }
  };

  const onDisable = async (values: { password?: string; code?: string }) => {
    if (panel.kind !== 'disable') return;
    const password = values.password ?? '';
    const code = (values.code ?? '').trim();
    if (!password && !code) {
      setFormError([t('twoFactorSettings.disable.proofRequired')]);
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const s = await disableTotp(code ? { code } : { password });
      setStatus({ enabled: !!s?.enabled, method: 'email', recovery_codes_left: 0 });
      setPanel({ kind: 'none' });
      if (panel.then === 'email') {
        await enableEmail();
      } else {
        void message.success(translateServerMessage('two_factor_disabled'));
      }
    } catch (err) {
      if (isInlineError(err)) setFormError(applyServerErrors(disableForm, err, ['password', 'code']));
    } finally {
      setBusy(false);
    }
  };

  const onEmailOff = async ({ password }: { password: string }) => {
    setBusy(true);
    setFormError(null);
    try {
      const s = await setTwoFactorEnabled(false, password ?? '');
      setStatus({ enabled: !!s?.enabled, method: 'email', recovery_codes_left: 0 });
      setPanel({ kind: 'none' });
      void message.success(translateServerMessage('two_factor_disabled'));
    } catch (err) {
      if (isInlineError(err)) setFormError(applyServerErrors(emailOffForm, err, ['password']));
    } finally {
      setBusy(false);
    }
  };

  const recoveryText = panel.kind === 'recovery' ? panel.codes.join('\n') + '\n' : '';

  const copyCodes = async () => {
    try {
      await navigator.clipboard.writeText(recoveryText);
      void message.success(t('twoFactorSettings.recovery.copied'));
    } catch {
      void message.warning(t('twoFactorSettings.recovery.copyFailed'));
    }
  };

  const downloadCodes = () => saveFile(new Blob([recoveryText], { type: 'text/plain;charset=utf-8' }), 'recovery-codes.txt');

  const cancel = () => {
    setPanel({ kind: 'none' });
    setFormError(null);
  };

  const choice = status ? choiceOf(status) : 'off';
  const statusText =
    choice === 'off'
      ? t('twoFactorSettings.off')
      : choice === 'totp'
        ? t('twoFactorSettings.onTotp')
        : t('twoFactorSettings.onEmail');

  return (
    <div className="page" data-testid="twofa-settings-page">
      <PageTitle titleKey={titleKey} />
      <Card className="form-card">
        {status === null && loadFailed ? (
          <Result
            status="warning"
            title={t('twoFactorSettings.loadFailed')}
            extra={
              <Button onClick={reload} data-testid="twofa-retry">
                {t('twoFactorSettings.retry')}
              </Button>
            }
          />
        ) : status === null ? (
          <Loading />
        ) : (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Typography.Paragraph>{t('twoFactorSettings.intro')}</Typography.Paragraph>
            <div>
              {t('twoFactorSettings.status')}{' '}
              <Tag
                color={status.enabled ? 'green' : 'default'}
                data-testid="twofa-status"
                data-enabled={String(status.enabled)}
                data-method={choice}
              >
                {statusText}
              </Tag>
            </div>
            <Radio.Group
              value={choice}
              disabled={busy || panel.kind === 'recovery'}
              onChange={(e) => void choose(e.target.value as Choice)}
              aria-label={t('twoFactorSettings.choose')}
              data-testid="twofa-method"
            >
              <Space orientation="vertical">
                <Radio value="off">
                  <span data-testid="twofa-method-off">{t('twoFactorSettings.methods.off')}</span>
                </Radio>
                <Radio value="email">
                  <span data-testid="twofa-method-email">{t('twoFactorSettings.methods.email')}</span>
                </Radio>
                <Radio value="totp">
                  <span data-testid="twofa-method-totp">{t('twoFactorSettings.methods.totp')}</span>
                </Radio>
              </Space>
            </Radio.Group>
            {panel.kind === 'none' && (
              <Typography.Paragraph type="secondary" data-testid="twofa-note">
                {choice === 'off' ? t('twoFactorSettings.onNote') : t('twoFactorSettings.offNote')}
              </Typography.Paragraph>
            )}
            {panel.kind === 'none' && choice === 'totp' && (
              <Typography.Paragraph data-testid="totp-recovery-left" data-count={status.recovery_codes_left ?? 0}>
                {t('twoFactorSettings.recoveryLeft', { count: status.recovery_codes_left ?? 0 })}
              </Typography.Paragraph>
            )}

            {panel.kind === 'setup' && (
              <Card size="small" title={t('twoFactorSettings.setup.title')} data-testid="totp-setup">
                <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
                  <Typography.Paragraph>{t('twoFactorSettings.setup.scan')}</Typography.Paragraph>
                  <QRCode value={panel.setup.otpauth_uri} type="svg" data-testid="totp-qr" />
                  <div>
                    <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
                      {t('twoFactorSettings.setup.manual')}
                    </Typography.Paragraph>
                    <Typography.Text code copyable={{ text: panel.setup.secret }} style={{ whiteSpace: 'nowrap' }}>
                      <span data-testid="totp-secret" data-secret={panel.setup.secret}>
                        {grouped(panel.setup.secret)}
                      </span>
                    </Typography.Text>
                  </div>
                  <PanelForm<{ code: string }>
                    form={confirmForm}
                    name="totp-confirm"
                    error={formError}
                    errorTestId="totp-confirm-error"
                    onFinish={onConfirm}
                    busy={busy}
                    submit={{ label: t('twoFactorSettings.setup.confirm'), testId: 'totp-confirm-submit' }}
                    onCancel={cancel}
                  >
                    <Form.Item
                      label={t('twoFactorSettings.setup.code')}
                      name="code"
                      rules={twoFactorCodeRules(t)}
                      normalize={normalizeCode}
                    >
                      <Input
                        prefix={<SafetyOutlined />}
                        autoComplete="one-time-code"
                        inputMode="numeric"
                        placeholder={'0'.repeat(TWO_FACTOR_CODE_LENGTH)}
                        data-testid="totp-confirm-code"
                      />
                    </Form.Item>
                  </PanelForm>
                </Space>
              </Card>
            )}

            {panel.kind === 'recovery' && (
              <Card size="small" title={t('twoFactorSettings.recovery.title')} data-testid="totp-recovery">
                <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
                  <Alert type="warning" showIcon title={t('twoFactorSettings.recovery.warning')} />
                  <ul className="plain-list recovery-codes" data-testid="totp-recovery-codes">
                    {panel.codes.map((c) => (
                      <li key={c}>
                        <Typography.Text code data-testid="totp-recovery-code">
                          {c}
                        </Typography.Text>
                      </li>
                    ))}
                  </ul>
                  <Space wrap>
                    <Button icon={<CopyOutlined />} onClick={() => void copyCodes()} data-testid="totp-recovery-copy">
                      {t('twoFactorSettings.recovery.copy')}
                    </Button>
                    <Button icon={<DownloadOutlined />} onClick={downloadCodes} data-testid="totp-recovery-download">
                      {t('twoFactorSettings.recovery.download')}
                    </Button>
                    <Button type="primary" onClick={() => setPanel({ kind: 'none' })} data-testid="totp-recovery-done">
                      {t('twoFactorSettings.recovery.done')}
                    </Button>
                  </Space>
                </Space>
              </Card>
            )}

            {panel.kind === 'emailOff' && (
              <Card size="small" title={t('twoFactorSettings.emailOff.title')} data-testid="twofa-off-confirm">
                <Typography.Paragraph>{t('twoFactorSettings.emailOff.intro')}</Typography.Paragraph>
                <PanelForm<{ password: string }>
                  form={emailOffForm}
                  name="twofa-off"
                  error={formError}
                  errorTestId="twofa-off-error"
                  onFinish={onEmailOff}
                  busy={busy}
                  submit={{ label: t('twoFactorSettings.emailOff.submit'), testId: 'twofa-off-submit', danger: true }}
                  onCancel={cancel}
                >
                  <Form.Item
                    label={t('twoFactorSettings.disable.password')}
                    name="password"
                    rules={[{ required: true, message: t('twoFactorSettings.emailOff.passwordRequired') }]}
                  >
                    <Input.Password autoComplete="current-password" data-testid="twofa-off-password" />
                  </Form.Item>
                </PanelForm>
              </Card>
            )}

            {panel.kind === 'disable' && (
              <Card size="small" title={t('twoFactorSettings.disable.title')} data-testid="totp-disable">
                <Typography.Paragraph>{t('twoFactorSettings.disable.intro')}</Typography.Paragraph>
                <PanelForm<{ password?: string; code?: string }>
                  form={disableForm}
                  name="totp-disable"
                  error={formError}
                  errorTestId="totp-disable-error"
                  onFinish={onDisable}
                  busy={busy}
                  submit={{ label: t('twoFactorSettings.disable.submit'), testId: 'totp-disable-submit', danger: true }}
                  onCancel={cancel}
                >
                  <Form.Item label={t('twoFactorSettings.disable.password')} name="password">
                    <Input.Password autoComplete="current-password" data-testid="totp-disable-password" />
                  </Form.Item>
                  <Form.Item label={t('twoFactorSettings.disable.code')} name="code">
                    <Input autoComplete="one-time-code" data-testid="totp-disable-code" />
                  </Form.Item>
                </PanelForm>
              </Card>
            )}
          </Space>
        )}
      </Card>
    </div>
  );
}
