import { BankOutlined, UserOutlined } from '@ant-design/icons';
import { sectorName } from '../../components/names';
import { Avatar, Card, Descriptions, Divider, Empty, Modal, Space, Typography } from 'antd';
import { useParams } from 'react-router';
import { lazy, Suspense, useEffect } from 'react';
import { useList, useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { customerDetails } from '../../api/customerAdmin';
import type { CustomerDetails } from '../../types/customerAdmin';
import type { Address } from '../../types/customers';
import { customerServices } from '../../api/subscriptions';
import type { PurchasedService } from '../../types/subscriptions';
import Loading from '../../components/Loading';
import { CUSTOMER_MODAL_WIDTH } from '../../config/constants';
import { formatAddress } from '../../format';
import { closeCustomerDetails, useCustomerDetailsState } from '../../store/customerDetails';
import CustomerSubscriptionsTable from '../subscriptions/CustomerSubscriptionsTable';
import CustomerLinks from './CustomerLinks';
import { useAreaRole } from '../../routes/pathFor';
import PageTitle from '../../components/PageTitle';

/** The credit-information account switch (admin, sales), loaded with its texts only when shown. */
const CreditAccountSwitch = lazy(() => import('../addons/CreditAccountSwitch'));
// Admin only, and seldom: its texts and code load when shown.
const ExportPanel = lazy(() => import('../dataRights/ExportPanel'));

/** Country id 1 is the only one offered (Sweden). */
function countryName(id: number, t: (k: string) => string): string {
  return id === 1 ? t('sweden') : '';
}

export function addressText(a: Address | null | undefined, t: (k: string) => string): string {
  if (!a) return '';
  return formatAddress({ ...a, country: countryName(a.country, t) });
}

/** The modal's contents for a loaded customer (exported for tests). */
export function CustomerDetailsView({
  customer,
  services,
  onChanged,
}: {
  customer: CustomerDetails;
  services: PurchasedService[] | null;
  onChanged?: () => void;
}) {
  const { t } = useTranslation('customerAdmin');
  const name = `${customer.first_name} ${customer.last_name}`.trim();
  const company = customer.customer_type === 'Company';
  const manager = customer.account_manager ? `${customer.account_manager.first_name} ${customer.account_manager.last_name}` : '-';
  return (
    <div data-testid="customer-details">
      <Space size="middle" align="center">
        <Avatar size={48} style={{ backgroundColor: '#FF9F7C' }} data-testid="customer-details-avatar">
          {(customer.first_name || customer.email || '?').charAt(0).toUpperCase()}
        </Avatar>
        <Space orientation="vertical" size={0}>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="customer-details-name">
            {name}
          </Typography.Title>
          <Typography.Text type="secondary" data-testid="customer-details-company">
            {company ? <BankOutlined aria-label={t('company')} /> : <UserOutlined aria-label={t('individual')} />}{' '}
            {company ? customer.company_name : t('individual')}
          </Typography.Text>
        </Space>
      </Space>
      <Suspense fallback={null}>
        <CreditAccountSwitch uid={customer.uid} />
      </Suspense>
      <Divider />
      <Descriptions title={t('contact')} column={1} size="small">
        <Descriptions.Item label={t('phone')}>{customer.phone || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('email')}>{customer.email}</Descriptions.Item>
        <Descriptions.Item label={t('accountManager')}>
          <span data-testid="customer-details-manager">{manager}</span>
        </Descriptions.Item>
      </Descriptions>
      {company && (
        <Descriptions title={t('companySection')} column={1} size="small" data-testid="customer-details-company-section">
          <Descriptions.Item label={t('companyName')}>{customer.company_name}</Descriptions.Item>
          <Descriptions.Item label={t('sector')}>{customer.sector ? sectorName(customer.sector.name) : '-'}</Descriptions.Item>
          <Descriptions.Item label={t('registrationNumber')}>
            <span data-testid="customer-details-regno" className="nowrap">{customer.company_registration_number}</span>
          </Descriptions.Item>
        </Descriptions>
      )}
      {services && <CustomerSubscriptionsTable rows={services} onChanged={onChanged} />}
      <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
        <Descriptions.Item label={t('visitingAddress')}>
          <span data-testid="customer-details-visiting">{addressText(customer.profile, t)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('invoiceAddress')}>
          <span data-testid="customer-details-invoice">
            {customer.same_invoice_address ? t('sameAsVisiting') : addressText(customer.invoice_address, t)}
          </span>
        </Descriptions.Item>
      </Descriptions>
    </div>
  );
}

/**
 * A customer's details and purchased services, read for `uid` (null: nothing to read). `missing`: the details
 * could not be read (the client has notified); `reload` reads both again.
 */
function useCustomerRecord(uid: string | null) {
  const details = useLoad(() => customerDetails(uid!), uid);
  const services = useList(() => customerServices(uid!).then((r) => r.purchased_services), uid);
  return {
    customer: details.data,
    services: services.rows,
    missing: details.error && details.data == null,
    reloadServices: () => void services.reload(),
    reload: () => void Promise.all([details.reload(), services.reload()]),
  };
}

/** The one customer-details modal, mounted in the layout; opened by `openCustomerDetails(uid)`. */
export default function CustomerDetailsModal() {
  const { t } = useTranslation('customerAdmin');
  const { uid, shown } = useCustomerDetailsState();
  const { customer, services, missing, reloadServices } = useCustomerRecord(shown && uid ? uid : null);
  // A customer that cannot be read closes the modal (the client has said why).
  useEffect(() => {
    if (missing) closeCustomerDetails();
  }, [missing]);

  return (
    <Modal
      open={shown}
      width={CUSTOMER_MODAL_WIDTH}
      footer={null}
      title={t('detailsTitle')}
      onCancel={closeCustomerDetails}
      destroyOnHidden
      data-testid="customer-details-modal"
    >
      {customer ? (
        <>
          <CustomerLinks uid={customer.uid} onFollow={closeCustomerDetails} />
          <CustomerDetailsView customer={customer} services={services} onChanged={reloadServices} />
        </>
      ) : (
        <Loading />
      )}
    </Modal>
  );
}

/** Admin customers/details/{customer_uid}: the same view as a page. */
export function CustomerDetailsPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('customerAdmin');
  const { customer_uid: uid } = useParams();
  const role = useAreaRole();
  const { customer, services, missing, reload: load } = useCustomerRecord(uid ?? null);
  return (
    <div className="page" data-testid="customer-details-page">
      <PageTitle titleKey={titleKey} />
      {uid && (
        <div style={{ marginBottom: 16 }}>
          <CustomerLinks uid={uid} />
        </div>
      )}
      <Card style={{ maxWidth: CUSTOMER_MODAL_WIDTH }}>
        {missing ? <Empty description={t('notFound')} /> : customer ? <CustomerDetailsView customer={customer} services={services} onChanged={load} /> : <Loading />}
      </Card>
      {/* The customer's data rights: admin starts an export for it. */}
      {uid && customer && role === 'admin' && (
        <div style={{ maxWidth: CUSTOMER_MODAL_WIDTH, marginTop: 16 }}>
          <Suspense fallback={<Loading />}>
            <ExportPanel customerUid={uid} staff />
          </Suspense>
        </div>
      )}
    </div>
  );
}
