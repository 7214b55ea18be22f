import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import KeyOutlined from '@ant-design/icons/es/icons/KeyOutlined';
import SafetyOutlined from '@ant-design/icons/es/icons/SafetyOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { isInlineError, serverMessages } from '../../api/formErrors';
import { resendCode, submitTwoFactorCode } from '../../auth/flow';
import { normalizeCode, normalizeRecoveryCode, recoveryCodeRules, twoFactorCodeRules } from '../../auth/validation';
import MessageAlert from '../../components/MessageAlert';
import { PublicCard, PublicLead, PublicTitle } from '../../components/PublicCard';
import { TWO_FACTOR_CODE_LENGTH } from '../../config/constants';
import { translateServerMessage } from '../../i18n';
import { clearPendingTwoFactor, getPendingTwoFactor } from '../../store/twoFactor';
import { rememberedOrigin } from './Login';
import PublicLayout from './PublicLayout';

interface CodeValues {
  code: string;
}

/** The server's key for a sign-in whose two-factor token has expired: only a new login helps. */
export const SESSION_EXPIRED_KEY = 'two_factor_session_expired';
/** Answers after which only a new login helps; /login shows them. */
const SIGN_IN_OVER = new Set([SESSION_EXPIRED_KEY, 'totp_attempts_exceeded']);

/**
 * /authentication (spec §2, §4): the 6-digit code e-mailed after the password
 * step, or (method 'totp') the authenticator app's code or a recovery code —
 * nothing is mailed then, so there is no resend. Without a pending sign-in,
 * back to /login; when the sign-in has expired, back to /login saying so.
 */
export default function TwoFactorLogin() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const location = useLocation();
  const [form] = Form.useForm<CodeValues>();
  // Read once: completing the login clears it, and the guard then leaves this page.
  const [pending] = useState(() => getPendingTwoFactor());
  const hasPending = pending !== null;
  const isApp = pending?.method === 'totp';
  const [useRecovery, setUseRecovery] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  /** The two-factor token itself is no longer valid: only a new login helps. */
  const [expired, setExpired] = useState(false);

  if (!hasPending) return <Navigate to="/login" replace />;

  const showError = (err: unknown) => {
    // The sign-in itself is over (expired, or too many wrong app codes): back to /login, which shows why.
    const key = isInlineError(err, [400]) && typeof err.body?.message === 'string' ? err.body.message : '';
    if (SIGN_IN_OVER.has(key)) {
      clearPendingTwoFactor();
      navigate('/login', { replace: true, state: { notice: key } });
      return;
    }
    // 401: the two-factor token is unknown or stale: only a new login helps.
    if (isInlineError(err, [401])) {
      clearPendingTwoFactor();
      setExpired(true);
      setError([t('twofa.signInExpired')]);
    } else if (isInlineError(err, [400, 429])) {
      const lines = serverMessages(err);
      setError(lines.length ? lines : [t('twofa.failed')]);
    }
    // Other statuses: the API client has shown the spec §8 notification.
  };

  const onFinish = async ({ code }: CodeValues) => {
    setSubmitting(true);
    setError(null);
    setInfo(null);
    try {
      const entered = useRecovery ? normalizeRecoveryCode(code) : normalizeCode(code);
      const outcome = await submitTwoFactorCode(entered, rememberedOrigin(location.state));
      if (outcome.kind === 'signedIn') navigate(outcome.target, { replace: true });
      else {
        setExpired(true);
        setError([t('public:login.noRole')]);
      }
    } catch (err) {
      showError(err);
    } finally {
      setSubmitting(false);
    }
  };

  const onResend = async () => {
    setResending(true);
    setError(null);
    setInfo(null);
    try {
      const message = await resendCode();
      form.resetFields();
      setInfo(translateServerMessage(message));
    } catch (err) {
      showError(err);
    } finally {
      setResending(false);
    }
  };

  const backToLogin = () => {
    clearPendingTwoFactor();
  };

  return (
    <PublicLayout titleKey="authentication">
      <PublicCard data-testid="twofa-page">
        <PublicTitle level={2} data-testid="page-title">
          {t('twofa.title')}
        </PublicTitle>
        <PublicLead data-testid="twofa-prompt">
          {isApp ? (useRecovery ? t('twofa.recoveryPrompt') : t('twofa.appPrompt')) : t('twofa.sent')}
        </PublicLead>
        <MessageAlert messages={error} testId="twofa-error" />
        <MessageAlert messages={info ? [info] : null} type="success" testId="twofa-info" />
        {!expired && (
          <Form<CodeValues>
            form={form}
            layout="vertical"
            name="twofa"
            data-testid="twofa-form"
            requiredMark={false}
            onFinish={onFinish}
            disabled={submitting}
          >
            {useRecovery ? (
              <Form.Item label={t('twofa.recoveryCode')} name="code" rules={recoveryCodeRules(t)}>
                <Input prefix={<KeyOutlined />} autoComplete="off" placeholder="XXXXX-XXXXX" autoFocus data-testid="twofa-code" />
              </Form.Item>
            ) : (
              <Form.Item label={t('twofa.code')} name="code" rules={twoFactorCodeRules(t)} normalize={normalizeCode}>
                <Input
                  prefix={<SafetyOutlined />}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  placeholder={'0'.repeat(TWO_FACTOR_CODE_LENGTH)}
                  autoFocus
                  data-testid="twofa-code"
                />
              </Form.Item>
            )}
            {isApp && (
              <Form.Item>
                <Space>
                  <Switch
                    checked={useRecovery}
                    onChange={(on) => {
                      setUseRecovery(on);
                      setError(null);
                      form.resetFields();
                    }}
                    aria-label={t('twofa.useRecovery')}
                    data-testid="twofa-use-recovery"
                  />
                  <span>{t('twofa.useRecovery')}</span>
                </Space>
              </Form.Item>
            )}
            <Button type="primary" htmlType="submit" block size="large" loading={submitting} data-testid="twofa-submit">
              {t('twofa.submit')}
            </Button>
          </Form>
        )}
        <div className="form-links">
          {!expired && !isApp && (
            <Button type="link" className="link-button" onClick={onResend} loading={resending} disabled={submitting} data-testid="twofa-resend">
              {t('twofa.resend')}
            </Button>
          )}
          <Link to="/login" replace onClick={backToLogin} data-testid="twofa-back">
            {t('public:backToLogin')}
          </Link>
        </div>
      </PublicCard>
    </PublicLayout>
  );
}
