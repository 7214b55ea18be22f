import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Link from '../../components/Link';
import { unsubscribeMail } from '../../api/users';
import InvalidLink from '../InvalidLink';
import PublicLayout from './PublicLayout';

/**
 * /unsubscribe?token=…: the link in every "something happened" mail. Turns
 * the mails off without signing in (the token is signed by the server) and
 * says so; a link that is not a real one shows the invalid-link screen.
 */
export default function Unsubscribe() {
  const { t } = useTranslation('public');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<'working' | 'done' | 'invalid'>(token ? 'working' : 'invalid');
  useEffect(() => {
    if (!token) return;
    let live = true;
    unsubscribeMail(token)
      .then(() => live && setState('done'))
      .catch(() => live && setState('invalid'));
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <PublicLayout titleKey="unsubscribe">
      <Card className="form-card" data-testid="unsubscribe-page">
        {state === 'working' && (
          <div data-testid="unsubscribe-working">
            <Spin /> {t('unsubscribe.working')}
          </div>
        )}
        {state === 'invalid' && <InvalidLink />}
        {state === 'done' && (
          <Result
            status="success"
            title={t('unsubscribe.title')}
            subTitle={`${t('unsubscribe.done')} ${t('unsubscribe.again')}`}
            data-testid="unsubscribe-done"
            extra={
              <Link to="/login">
                <Button type="primary">{t('unsubscribe.login')}</Button>
              </Link>
            }
          />
        )}
      </Card>
    </PublicLayout>
  );
}
