/**
 * Service routes of the customer and contact areas (spec §5 service access):
 * the 'no subscription, please subscribe' promotion when the service is not
 * among the purchased services; credit check also needs the active
 * credit-information account. Contract check is always shown.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Button, Card, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import Loading from '../../components/Loading';
import '../addons/texts';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { useSession } from '../../store/session';
import { hasService } from './customerServices';
import { hasPermission } from '../../auth/permissions';
import type { Permission } from '../../types/users';
import { contractCheckLink } from '../../api/inkasso';
import { useLoad } from '../../api/useList';
import { serviceName as nameOfService } from '../../components/names';

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

type ServicePage = ComponentType<{ titleKey: string }>;

const ContractSignPage = lazy(() => import('../addons/ContractSign'));
const CreditCheckPage = lazy(() => import('../addons/CreditCheck'));
const InkassoPage = lazy(() => import('../addons/Inkasso'));
const VideoMeetingsPage = lazy(() => import('../addons/meetings/VideoMeetings'));
const LawyerMeetingsPage = lazy(() => import('../addons/meetings/LawyerMeetings'));



/** The contract-sign routes share one page; create/ opens the empty form. */
function ContractSignScreen({ titleKey }: { titleKey: string }) {
  return <ContractSignPage titleKey={titleKey} create={titleKey === 'contractSignCreate'} />;
}

/**
 * Why a service is refused, named as the server's refusals are (their message keys): a contact without the
 * service's permission, no plan, or (credit check) the §5 credit-information account not switched on.
 */
export type Refusal = 'service_permission_missing' | 'service_not_purchased' | 'credit_account_inactive';

export function refusalOf(
  services: { purchased_services?: Parameters<typeof hasService>[0]; bisnode_account_active?: boolean },
  serviceId: number,
  opts: { needsCreditAccount?: boolean; permission?: Permission },
  user: { user_type?: number | string | null; permissions?: readonly string[] | null } | null,
): Refusal | null {
  if (opts.permission && !hasPermission(user?.user_type, user?.permissions, opts.permission)) return 'service_permission_missing';
  if (!hasService(services.purchased_services, serviceId)) return 'service_not_purchased';
  if (opts.needsCreditAccount && !services.bisnode_account_active) return 'credit_account_inactive';
  return null;
}

/** A refusal other than "no plan": its own title and what to do (no "subscribe" button: buying would not help). */
function Refused({ refusal }: { refusal: Exclude<Refusal, 'service_not_purchased'> }) {
  const { t } = useTranslation('subscriptions');
  const role = useAreaRole();
  return (
    <div className="page" data-testid="service-refused" data-refusal={refusal}>
      <Result
        status="warning"
        title={t(`refusal.${refusal}.title`)}
        subTitle={t(`refusal.${refusal}.text`)}
        extra={
          <Link to={pathFor(role, 'dashboard')}>
            <Button>{t('refusal.back')}</Button>
          </Link>
        }
      />
    </div>
  );
}

/** A route Component that shows the service's page only when it may be used, else why not. */
export function gated(serviceId: number, serviceName: string, opts: { needsCreditAccount?: boolean; permission?: Permission; Page: ServicePage }) {
  return function ServiceRoute({ titleKey }: { titleKey: string }) {
    const services = useSession((s) => s.services);
    const userType = useSession((s) => s.user?.user_type);
    const permissions = useSession((s) => s.permission);
    // The service named in the reader's language ('Inkasso', not the stored 'Incasso').
    const name = nameOfService(serviceId, serviceName);
    const refusal = refusalOf(services, serviceId, opts, { user_type: userType, permissions });
    if (refusal === 'service_not_purchased') return <Promotion serviceName={name} />;
    if (refusal) return <Refused refusal={refusal} />;
    return (
      <Suspense fallback={<Loading />}>
        <opts.Page titleKey={titleKey} />
      </Suspense>
    );
  };
}

/** Contract check: always shown (spec §2 service screens, §5); the link out comes from the server's configuration. */
export function ContractCheck() {
  const { t, i18n } = useTranslation('subscriptions');
  const { data: link } = useLoad(() => contractCheckLink(i18n.language), i18n.language);
  const url = link?.url ?? null;
  const contact = { phone: link?.phone, email: link?.email };
  return (
    <div className="page" data-testid="contract-check-page">
      <Typography.Title level={2}>{t('contractCheck.title')}</Typography.Title>
      <Card>
        <Space orientation="vertical">
          <Typography.Paragraph data-testid="contract-check-about">{t('contractCheck.about')}</Typography.Paragraph>
          <Typography.Text strong>{t('contractCheck.bank')}</Typography.Text>
          <Button type="primary" href={url ?? undefined} disabled={!url} target="_blank" rel="noopener noreferrer" data-testid="contract-check-link">
            {t('contractCheck.go')}
          </Button>
          <Typography.Text type="secondary" data-testid="contract-check-note">
            {contact.phone || contact.email ? t('contractCheck.noteContact') : t('contractCheck.note')}
          </Typography.Text>
          {contact.phone && (
            <Typography.Text data-testid="contract-check-phone">
              {t('contractCheck.phone')}: <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>{contact.phone}</a>
            </Typography.Text>
          )}
          {contact.email && (
            <Typography.Text data-testid="contract-check-email">
              {t('contractCheck.email')}: <a href={`mailto:${contact.email}`}>{contact.email}</a>
            </Typography.Text>
          )}
        </Space>
      </Card>
    </div>
  );
}

export const CreditCheckRoute = gated(SERVICE_IDS.bisnode, 'Bisnode', { needsCreditAccount: true, permission: 'view_bisnode', Page: CreditCheckPage });
export const InkassoRoute = gated(SERVICE_IDS.incasso, 'Incasso', { permission: 'view_inkasso', Page: InkassoPage });
export const ContractSignRoute = gated(SERVICE_IDS.verified, 'Verified', { permission: 'view_verify', Page: ContractSignScreen });
const CustomerVideoMeetingRoute = gated(SERVICE_IDS.videoMeeting, 'Video meeting', { Page: VideoMeetingsPage });

/**
 * Video meetings: the customer's and contact's booking page behind the
 * purchase; in the lawyer area the lawyer's offered times (no purchase of
 * their own: the customers' plans count the bookings). One page key for
 * both keeps the areas' first load light.
 */
export function VideoMeetingRoute({ titleKey }: { titleKey: string }) {
  const role = useAreaRole();
  if (role !== 'lawyer') return <CustomerVideoMeetingRoute titleKey={titleKey} />;
  return (
    <Suspense fallback={<Loading />}>
      <LawyerMeetingsPage titleKey={titleKey} />
    </Suspense>
  );
}
