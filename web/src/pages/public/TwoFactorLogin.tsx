// As on the login page (its budget, src/budget.test.ts): no antd component (the button, field and icons drawn as
// antd's by CSS alone: components/plain; no Form, Switch or Space), and the Alert loaded with the first submit or resend.
import KeyOutlined from '@ant-design/icons-svg/es/asn/KeyOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import Button from '../../components/plain/PlainButton';
import Input from '../../components/plain/PlainInput';
import Icon from '../../components/plain/PlainIcon';
import { Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import Link from '../../components/Link';
import { normalizeCode, normalizeRecoveryCode, recoveryCodeProblem, twoFactorCodeProblem } from '../../validation/auth';
import MessageAlert, { loadMessageAlert } from '../../components/LazyMessageAlert';
import Field, { fieldAria } from '../../components/PlainField';
import { PublicCard, PublicLead, PublicTitle } from '../../components/PublicCard';
import { TWO_FACTOR_CODE_LENGTH } from '../../config/constants';
import { translateServerMessage } from '../../i18n';
import { clearPendingTwoFactor, getPendingTwoFactor } from '../../store/twoFactor';
import { rememberedOrigin } from './Login';
import PublicLayout from './PublicLayout';
import './twoFactor.css';

// The sign-in's calls load once the page is in use (as on the login page, which has loaded them already when it
// sent the visitor here): not before the page is usable (its budget, src/budget.test.ts).
const loadSignIn = () => Promise.all([import('../../auth/flow'), import('../../api/formErrors')]);
type FormErrors = Awaited<ReturnType<typeof loadSignIn>>[1];

/** The server's key for a sign-in whose two-factor token has expired: only a new login helps. */
export const SESSION_EXPIRED_KEY = 'two_factor_session_expired';
/** Answers after which only a new login helps; /login shows them. */
const SIGN_IN_OVER = new Set([SESSION_EXPIRED_KEY, 'totp_attempts_exceeded']);
/** After the last wrong try the mailed code is replaced and a new one sent: the same sign-in goes on with it. */
export const CODE_REPLACED_KEY = 'code_replaced';

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
  // Read once: completing the login clears it, and the guard then leaves this page.
  const [pending] = useState(() => getPendingTwoFactor());
  const hasPending = pending !== null;
  const isApp = pending?.method === 'totp';
  const [useRecovery, setUseRecovery] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  /** A new code after wrong ones is news to act on (warning); a resend the user asked for is a success. */
  const [infoType, setInfoType] = useState<'success' | 'warning'>('success');
  /** The two-factor token itself is no longer valid: only a new login helps. */
  const [expired, setExpired] = useState(false);
  // The code as antd's Form kept it (a 6-digit code without its spaces as typed; a recovery code as typed),
  // checked as it changes once touched and on submit (validation/auth.ts: the settings page's rules say the same).
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = (useRecovery ? recoveryCodeProblem : twoFactorCodeProblem)(code);
  const codeError = touched && problem ? t(problem) : null;
  const clearCode = () => {
    setCode('');
    setTouched(false);
  };

  if (!hasPending) return <Navigate to="/login" replace />;

  /** A failed call's answer on the page (`forms`: the answers' reader, loaded with the sign-in's calls). */
  const showError = ({ isInlineError, serverMessages }: FormErrors, err: unknown) => {
    // The sign-in itself is over (expired, or too many wrong app codes): back to /login, which shows why.
    const key = isInlineError(err, [400]) && typeof err.body?.message === 'string' ? err.body.message : '';
    if (SIGN_IN_OVER.has(key)) {
      clearPendingTwoFactor();
      navigate('/login', { replace: true, state: { notice: key } });
      return;
    }
    // The typed code is dead and a new one is on its way: an empty field for it, and say so.
    if (key === CODE_REPLACED_KEY) {
      clearCode();
      setInfoType('warning');
      setInfo(translateServerMessage(key));
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

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting) return;
    void loadMessageAlert();
    void loadSignIn();
    setTouched(true);
    if (!problem) void onFinish();
  };

  const onFinish = async () => {
    setSubmitting(true);
    setError(null);
    setInfo(null);
    let forms: FormErrors | undefined;
    try {
      const entered = useRecovery ? normalizeRecoveryCode(code) : code;
      const [{ submitTwoFactorCode }, formErrors] = await loadSignIn();
      forms = formErrors;
      const outcome = await submitTwoFactorCode(entered, rememberedOrigin(location.state));
      if (outcome.kind === 'signedIn') navigate(outcome.target, { replace: true });
      else {
        setExpired(true);
        setError([t('public:login.noRole')]);
      }
    } catch (err) {
      // (Without `forms` the sign-in's modules did not load: offline, as a failed call the page says nothing of.)
      if (forms) showError(forms, err);
    } finally {
      setSubmitting(false);
    }
  };

  const onResend = async () => {
    setResending(true);
    setError(null);
    setInfo(null);
    void loadMessageAlert();
    let forms: FormErrors | undefined;
    try {
      const [{ resendCode }, formErrors] = await loadSignIn();
      forms = formErrors;
      const message = await resendCode();
      clearCode();
      setInfoType('success');
      setInfo(translateServerMessage(message));
    } catch (err) {
      // (Without `forms` the sign-in's modules did not load: offline, as a failed call the page says nothing of.)
      if (forms) showError(forms, err);
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
        <Suspense fallback={null}>
          <MessageAlert messages={error} testId="twofa-error" />
          <MessageAlert messages={info ? [info] : null} type={infoType} testId="twofa-info" />
        </Suspense>
        {!expired && (
          <form id="twofa" className="plain-form" data-testid="twofa-form" noValidate onSubmit={onSubmit} onFocus={() => void loadSignIn()}>
            <Field id="twofa_code" label={useRecovery ? t('twofa.recoveryCode') : t('twofa.code')} error={codeError}>
              <Input
                // A new input (focused again) for the other kind of code.
                key={useRecovery ? 'recovery' : 'code'}
                id="twofa_code"
                value={code}
                onChange={(e) => {
                  setCode(useRecovery ? e.target.value : normalizeCode(e.target.value));
                  setTouched(true);
                }}
                status={codeError ? 'error' : undefined}
                aria-required="true"
                {...fieldAria('twofa_code', codeError)}
                disabled={submitting}
                autoFocus
                data-testid="twofa-code"
                {...(useRecovery
                  ? { prefix: <Icon icon={KeyOutlined} />, autoComplete: 'off', placeholder: 'XXXXX-XXXXX' }
                  : {
                      prefix: <Icon icon={SafetyOutlined} />,
                      autoComplete: 'one-time-code',
                      inputMode: 'numeric' as const,
                      placeholder: '0'.repeat(TWO_FACTOR_CODE_LENGTH),
                    })}
              />
            </Field>
            {isApp && (
              <div className="plain-form-item">
                {/* A checkbox drawn as antd's Switch (styles.css `.plain-switch`), announced as a switch. */}
                <label className="plain-switch-label">
                  <input
                    type="checkbox"
                    role="switch"
                    className="plain-switch"
                    checked={useRecovery}
                    onChange={(e) => {
                      setUseRecovery(e.target.checked);
                      setError(null);
                      clearCode();
                    }}
                    disabled={submitting}
                    data-testid="twofa-use-recovery"
                  />
                  <span>{t('twofa.useRecovery')}</span>
                </label>
              </div>
            )}
            <Button type="primary" htmlType="submit" block size="large" loading={submitting} disabled={submitting} data-testid="twofa-submit">
              {t('twofa.submit')}
            </Button>
          </form>
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
