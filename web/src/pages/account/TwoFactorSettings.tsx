import { App as AntApp, Button, Card, Result, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchTwoFactorStatus, toggleTwoFactor } from '../../api/auth';
import { signOutLocally } from '../../auth/flow';
import Loading from '../../components/Loading';
import { translateServerMessage } from '../../i18n';

/**
 * <prefix>/update-2fa: two-factor sign-in by e-mailed code, on or off.
 * Spec §4: after turning it on the user must log in again (the server has
 * ended every session), so the session is cleared and the user sent to /login.
 */
export default function TwoFactorSettings({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('account');
  const { message } = AntApp.useApp();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let active = true;
    setLoadFailed(false);
    fetchTwoFactorStatus()
      .then((s) => {
        if (active) setEnabled(!!s?.enabled);
      })
      .catch(() => {
        // The API client has shown the error; offer to try again.
        if (active) setLoadFailed(true);
      });
    return () => {
      active = false;
    };
  }, [attempt]);

  const onToggle = async () => {
    setBusy(true);
    try {
      const s = await toggleTwoFactor();
      if (s?.enabled) {
        // Every session has ended on the server: no more calls with this token.
        void message.success(translateServerMessage('two_factor_enabled'), 6);
        signOutLocally();
        return;
      }
      setEnabled(false);
      void message.success(translateServerMessage('two_factor_disabled'));
    } catch {
      /* the API client has shown the error */
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page" data-testid="twofa-settings-page">
      <Typography.Title level={2} data-testid="page-title">
        {t(titleKey, { ns: 'routes' })}
      </Typography.Title>
      <Card className="form-card">
        {enabled === null && loadFailed ? (
          <Result
            status="warning"
            title={t('twoFactorSettings.loadFailed')}
            extra={
              <Button onClick={() => setAttempt((n) => n + 1)} data-testid="twofa-retry">
                {t('twoFactorSettings.retry')}
              </Button>
            }
          />
        ) : enabled === null ? (
          <Loading />
        ) : (
          <Space orientation="vertical" size="middle">
            <Typography.Paragraph>{t('twoFactorSettings.intro')}</Typography.Paragraph>
            <Space size="middle" align="center">
              <Switch
                checked={enabled}
                loading={busy}
                onChange={() => void onToggle()}
                aria-label={t('twoFactorSettings.toggle')}
                data-testid="twofa-toggle"
              />
              <span>
                {t('twoFactorSettings.status')}{' '}
                <Tag color={enabled ? 'green' : 'default'} data-testid="twofa-status" data-enabled={String(enabled)}>
                  {enabled ? t('twoFactorSettings.on') : t('twoFactorSettings.off')}
                </Tag>
              </span>
            </Space>
            <Typography.Paragraph type="secondary">
              {enabled ? t('twoFactorSettings.offNote') : t('twoFactorSettings.onNote')}
            </Typography.Paragraph>
          </Space>
        )}
      </Card>
    </div>
  );
}
