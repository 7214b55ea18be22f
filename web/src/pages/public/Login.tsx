import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { fetchProfile, obtainToken } from '../../api/auth';
import { ApiError, collectMessages } from '../../api/errors';
import { postLoginTarget } from '../../auth/guards';
import { resolveRole } from '../../auth/roles';
import { clearSession, getState, setState } from '../../store/session';
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

  const onFinish = async ({ email, password }: LoginValues) => {
    setSubmitting(true);
    setError(null);
    try {
      const auth = await obtainToken(email.trim(), password);
      const user = await fetchProfile({ auth });
      const role = resolveRole(user);
      if (role === 'none') {
        clearSession();
        setError([t('login.noRole')]);
        return;
      }
      const target = postLoginTarget(role, rememberedOrigin(location.state));
      setState((s) => ({ auth, user, utilities: { ...s.utilities, initialRoute: null } }));
      navigate(target, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && (err.status === 400 || err.status === 401)) {
        const lines = collectMessages(err.body);
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
        {error && (
          <Alert
            type="error"
            showIcon
            className="login-error"
            data-testid="login-error"
            title={error.length === 1 ? error[0] : <ul className="plain-list">{error.map((e, i) => <li key={i}>{e}</li>)}</ul>}
          />
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
