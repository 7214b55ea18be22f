import { Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { isInlineError, serverMessages } from '../../api/formErrors';
import { login } from '../../auth/flow';
import { trimValue } from '../../auth/validation';
import MessageAlert from '../../components/MessageAlert';
import { translateServerMessage } from '../../i18n';
import { getState } from '../../store/session';
import PublicLayout from './PublicLayout';

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
  // Why the user was sent back here (e.g. the two-factor sign-in expired): a server message key.
  const notice = (location.state as { notice?: unknown } | null)?.notice;

  const onFinish = async ({ email, password }: LoginValues) => {
    setSubmitting(true);
    setError(null);
    const origin = rememberedOrigin(location.state);
    try {
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
      if (isInlineError(err, [400, 401, 429])) {
        const lines = serverMessages(err);
        setError(lines.length ? lines : [t('login.failed')]);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PublicLayout titleKey="login">
      <Card className="public-card login-card" data-testid="login-page">
        <Typography.Title level={2} data-testid="page-title">
          {t('login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('login.subtitle')}</Typography.Paragraph>
        <MessageAlert messages={error} testId="login-error" className="login-error" />
        {!error && typeof notice === 'string' && (
          <MessageAlert messages={[translateServerMessage(notice)]} type="warning" testId="login-notice" />
        )}
        <Form<LoginValues>
          layout="vertical"
          name="login"
          data-testid="login-form"
          requiredMark={false}
          onFinish={onFinish}
          disabled={submitting}
        >
          <Form.Item
            label={t('login.email')}
            name="email"
            normalize={trimValue}
            rules={[
              { required: true, message: t('login.emailRequired') },
              { type: 'email', message: t('login.emailInvalid') },
            ]}
          >
            <Input prefix={<MailOutlined />} autoComplete="username" inputMode="email" data-testid="login-email" />
          </Form.Item>
          <Form.Item label={t('login.password')} name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={submitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
        <div className="login-links">
          <Link to="/recover-password" data-testid="login-forgot">
            {t('login.forgot')}
          </Link>
          <Link to="/registration" data-testid="login-register">
            {t('login.register')}
          </Link>
        </div>
      </Card>
    </PublicLayout>
  );
}
