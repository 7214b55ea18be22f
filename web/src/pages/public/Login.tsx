// No antd component on the first page (its budget, src/budget.test.ts): its button, fields and icons are drawn as
// antd's by CSS alone (components/plain).
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import MailOutlined from '@ant-design/icons-svg/es/asn/MailOutlined';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import Link from '../../components/Link';
import { trimValue } from '../../validation/auth';
import { isEmail } from '../../validation/fields';
// antd's Alert is not on the first page's budget: it loads with the first submit, so it is
// there when a failed sign-in answers, or with a notice to show.
import MessageAlert, { loadMessageAlert } from '../../components/LazyMessageAlert';
// No antd Form (the page's budget): its fields drawn as Form.Item draws them.
import Field, { fieldAria } from '../../components/PlainField';
import { PublicCard, PublicLead, PublicTitle } from '../../components/PublicCard';
import { translateServerMessage, useServerTexts } from '../../i18n';
import { getState } from '../../store/session';
import PublicLayout from './PublicLayout';
import { themedModule } from '../../components/themed';
import Button from '../../components/plain/PlainButton';
import Input, { PlainPassword as Password } from '../../components/plain/PlainInput';
import Icon from '../../components/plain/PlainIcon';

// The sign-in's calls (auth/flow.ts with the API's modules) and the reading of its error answers load once the form is
// in use (focused, or at the latest on submit), beside the API client's Amplify, which the call waits for anyway: not
// with the first page (its budget, src/budget.test.ts).
const loadSignIn = () => Promise.all([import('../../auth/flow'), import('../../api/formErrors')]);

// BankID (its QR code and polling, drawn by antd in the app's theme) loads when its button is pressed:
// nothing of it on the first page.
const BankIdLogin = lazy(() => themedModule(() => import('../../components/bankid/BankIdLogin')));

interface LoginValues {
  email: string;
  password: string;
}

/** The origin remembered by the guard: router state first, then the persisted initial route. */
export function rememberedOrigin(state: unknown): string | null {
  const from = (state as { from?: unknown } | null)?.from;
  if (typeof from === 'string' && from.startsWith('/')) return from;
  return getState().utilities.initialRoute;
}

export default function Login() {
  const { t } = useTranslation('public');
  const navigate = useNavigate();
  const location = useLocation();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [bankId, setBankId] = useState(false);
  // Each field's rule is checked as it changes (once touched) and all on submit, as antd's Form does.
  const [touched, setTouched] = useState<Record<keyof LoginValues, boolean>>({ email: false, password: false });
  const fieldError = (field: keyof LoginValues): string | null => {
    if (!touched[field]) return null;
    if (!values[field]) return t(field === 'email' ? 'login.emailRequired' : 'login.passwordRequired');
    if (field === 'email' && !isEmail(values.email)) return t('login.emailInvalid');
    return null;
  };
  const change = (field: keyof LoginValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  };
  const emailError = fieldError('email');
  const passwordError = fieldError('password');
  // Why the user was sent back here (e.g. the two-factor sign-in expired): a server message key.
  const notice = (location.state as { notice?: unknown } | null)?.notice;
  // A notice is a server message key (handed over by the two-factor page): drawn once the server's texts are in.
  const serverTexts = useServerTexts(typeof notice === 'string');

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting) return;
    void loadMessageAlert();
    void loadSignIn();
    setTouched({ email: true, password: true });
    if (!values.email || !isEmail(values.email) || !values.password) return;
    void onFinish(values);
  };

  const onFinish = async ({ email, password }: LoginValues) => {
    setSubmitting(true);
    setError(null);
    const origin = rememberedOrigin(location.state);
    let forms: Awaited<ReturnType<typeof loadSignIn>>[1] | undefined;
    try {
      const [{ login }, formErrors] = await loadSignIn();
      forms = formErrors;
      const outcome = await login(email.trim(), password, origin);
      if (outcome.kind === 'twoFactor') {
        // The code was e-mailed; the pending token is in sessionStorage.
        navigate('/authentication', { state: origin ? { from: origin } : undefined });
      } else if (outcome.kind === 'noRole') {
        setError([t('login.noRole')]);
      } else {
        navigate(outcome.target, { replace: true });
      }
    } catch (err) {
      // 400 invalid_credentials / account_inactive, 401, 429 too_many_requests: inline.
      // (Without `forms` the sign-in's modules did not load: offline, as a failed call the page says nothing of.)
      if (forms?.isInlineError(err, [400, 401, 429])) {
        const lines = forms.serverMessages(err);
        setError(lines.length ? lines : [t('login.failed')]);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PublicLayout titleKey="login">
      <PublicCard className="login-card" data-testid="login-page">
        <PublicTitle level={2} data-testid="page-title">
          {t('login.title')}
        </PublicTitle>
        <PublicLead>{t('login.subtitle')}</PublicLead>
        <Suspense fallback={null}>
          <MessageAlert messages={error} testId="login-error" className="login-error" />
          {!error && typeof notice === 'string' && serverTexts && (
            <MessageAlert messages={[translateServerMessage(notice)]} type="warning" testId="login-notice" />
          )}
        </Suspense>
        <form id="login" className="plain-form" data-testid="login-form" noValidate onSubmit={onSubmit} onFocus={() => void loadSignIn()}>
          <Field id="login_email" label={t('login.email')} error={emailError}>
            <Input
              id="login_email"
              value={values.email}
              onChange={(e) => change('email', trimValue(e.target.value) as string)}
              status={emailError ? 'error' : undefined}
              aria-required="true"
              {...fieldAria('login_email', emailError)}
              disabled={submitting}
              prefix={<Icon icon={MailOutlined} />}
              autoComplete="username"
              inputMode="email"
              data-testid="login-email"
            />
          </Field>
          <Field id="login_password" label={t('login.password')} error={passwordError}>
            <Password
              id="login_password"
              value={values.password}
              onChange={(e) => change('password', e.target.value)}
              status={passwordError ? 'error' : undefined}
              aria-required="true"
              {...fieldAria('login_password', passwordError)}
              disabled={submitting}
              prefix={<Icon icon={LockOutlined} />}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Field>
          <Button type="primary" htmlType="submit" block size="large" loading={submitting} disabled={submitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </form>
        <div className="login-bankid">
          {bankId ? (
            <Suspense fallback={null}>
              <BankIdLogin origin={rememberedOrigin(location.state)} onClose={() => setBankId(false)} onNoRole={() => setError([t('login.noRole')])} />
            </Suspense>
          ) : (
            <Button block size="large" onClick={() => setBankId(true)} data-testid="login-bankid">
              {t('login.bankid')}
            </Button>
          )}
        </div>
        <div className="login-links">
          <Link to="/recover-password" data-testid="login-forgot">
            {t('login.forgot')}
          </Link>
          <Link to="/registration" data-testid="login-register">
            {t('login.register')}
          </Link>
        </div>
      </PublicCard>
    </PublicLayout>
  );
}
