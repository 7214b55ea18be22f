/**
 * Service routes of the customer and contact areas (spec §5 service access):
 * the 'no subscription, please subscribe' promotion when the service is not
 * among the purchased services; credit check also needs the active
 * credit-information account. Contract check is always shown.
 */
import { Button, Card, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import Placeholder from '../Placeholder';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { useSession } from '../../store/session';
import { hasService } from './customerServices';

export const SERVICE_IDS = { verified: 2, bisnode: 3, incasso: 4, kontrakto: 5, videoMeeting: 6 } as const;

function Promotion({ serviceName, extra }: { serviceName: string; extra?: string }) {
  const { t } = useTranslation('subscriptions');
  const role = useAreaRole();
  return (
    <div className="page" data-testid="service-promotion">
      <Result
        status="info"
        title={t('promotion.title')}
        subTitle={
          <Space orientation="vertical">
            <span>{t('promotion.text', { service: serviceName })}</span>
            {extra && <span>{extra}</span>}
          </Space>
        }
        extra={
          <Link to={pathFor(role, 'dashboard')}>
            <Button type="primary">{t('promotion.subscribe')}</Button>
          </Link>
        }
      />
    </div>
  );
}

/** A route Component that shows the service's page only when it is purchased. */
export function gated(serviceId: number, serviceName: string, opts: { needsCreditAccount?: boolean } = {}) {
  return function ServiceRoute({ titleKey }: { titleKey: string }) {
    const { t } = useTranslation('subscriptions');
    const services = useSession((s) => s.services);
    if (!hasService(services.purchased_services, serviceId)) return <Promotion serviceName={serviceName} />;
    if (opts.needsCreditAccount && !services.bisnode_account_active) {
      return <Promotion serviceName={serviceName} extra={t('promotion.creditAccount')} />;
    }
    return <Placeholder titleKey={titleKey} />;
  };
}

/** Contract check: always shown (spec §2 service screens, §5). */
export function ContractCheck() {
  const { t } = useTranslation('subscriptions');
  return (
    <div className="page" data-testid="contract-check-page">
      <Typography.Title level={2}>{t('contractCheck.title')}</Typography.Title>
      <Card>
        <Space orientation="vertical">
          <Typography.Text strong>{t('contractCheck.bank')}</Typography.Text>
          <a href="https://www.avtalskollen.se/" target="_blank" rel="noopener noreferrer" data-testid="contract-check-link">
            <Button type="primary">{t('contractCheck.go')}</Button>
          </a>
          <Typography.Text type="secondary">{t('contractCheck.note')}</Typography.Text>
        </Space>
      </Card>
    </div>
  );
}

export const CreditCheckRoute = gated(SERVICE_IDS.bisnode, 'Bisnode', { needsCreditAccount: true });
export const InkassoRoute = gated(SERVICE_IDS.incasso, 'Incasso');
export const ContractSignRoute = gated(SERVICE_IDS.verified, 'Verified');
export const VideoMeetingRoute = gated(SERVICE_IDS.videoMeeting, 'Video meeting');
