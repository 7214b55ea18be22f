import { Button, Card, Checkbox, Col, Form, Input, InputNumber, Radio, Row, Select, Typography } from 'antd';
import { sectorName } from '../../components/names';
import { useState } from 'react';
import { useList } from '../../api/useList';
import { useFormRecord } from '../../components/FormPage';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isInlineError, splitServerErrors } from '../../api/formErrors';
import {
  accountManagers,
  companySizes,
  createCustomer,
  customerDetails,
  departments,
  knowledgeSectors,
  updateCustomer,
} from '../../api/customerAdmin';
import type {
  AccountManager,
  CompanySize,
  CustomerDetails,
  CustomerForm as FormInput,
  NamedEntry,
} from '../../types/customerAdmin';
import { fetchBusinessSectors } from '../../api/customers';
import type { Address, BusinessSector } from '../../types/customers';
import Loading from '../../components/Loading';
import MessageAlert from '../../components/MessageAlert';
import { FOLDED_SEARCH } from '../../components/foldedSearch';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { namedIn } from '../../format';
import { HOURLY_RATE_MIN } from '../../validation/bounds';
import { normalisePostCode } from '../../validation/fields';
import { emailRule, minRule, postCodeRule, registrationNumberRule } from '../../validation/formRules';
import PageTitle from '../../components/PageTitle';

const ADDRESS_PARTS = ['address_1', 'address_2', 'post_code', 'city', 'country'] as const;

/** Every server field name the form shows (nested ones dotted, as the server sends them). */
export const FORM_FIELDS = [
  'customer_type',
  'first_name',
  'last_name',
  'email',
  'company_name',
  'company_registration_number',
  'sector',
  'phone',
  'account_manager',
  'invoice_by',
  'department',
  'hourly_rate',
  'knowledge_sectors',
  'company_size',
  ...ADDRESS_PARTS.map((p) => `profile.${p}`),
  ...ADDRESS_PARTS.map((p) => `invoice_address.${p}`),
];

/**
 * The form's fields as the form holds them. The body type states what the
 * server requires per case (a company's name, number and sector; an invoice
 * address unless it is the visiting one) as alternatives; the form's rules
 * hold them, and toInput sends only what applies.
 */
export type FormValues = Omit<
  FormInput,
  'customer_type' | 'company_name' | 'company_registration_number' | 'sector' | 'same_invoice_address' | 'invoice_address'
> & {
  customer_type: FormInput['customer_type'];
  company_name?: string;
  company_registration_number?: string;
  sector?: string;
  same_invoice_address?: boolean;
  invoice_address?: Address;
};

const emptyAddress = (): Address => ({ address_1: '', address_2: '', city: '', post_code: '', country: 1 });

/** The form's values from a stored customer. */
export function toFormValues(c: CustomerDetails): FormValues {
  return {
    customer_type: c.customer_type,
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    company_name: c.company_name ?? '',
    company_registration_number: c.company_registration_number ?? '',
    sector: c.sector?.id,
    phone: c.phone,
    profile: c.profile,
    same_invoice_address: c.same_invoice_address,
    invoice_address: c.same_invoice_address ? emptyAddress() : c.invoice_address,
    account_manager: c.account_manager_uid ?? undefined,
    invoice_by: c.invoice_by ?? undefined,
    department: c.department_id ?? undefined,
    hourly_rate: c.hourly_rate_ore != null ? c.hourly_rate_ore / 100 : undefined,
    knowledge_sectors: c.knowledge_sectors ?? [],
    company_size: c.company_size ?? undefined,
  };
}

/** What is sent: company fields only for companies, the invoice address only when it differs. */
export function toInput(v: FormValues): FormInput {
  const company = v.customer_type === 'Company';
  // The form's rules make it one of the body's alternatives.
  return {
    ...v,
    company_name: company ? v.company_name ?? '' : '',
    company_registration_number: company ? (v.company_registration_number ?? '').trim() : '',
    sector: company ? v.sector ?? '' : '',
    invoice_address: v.same_invoice_address ? undefined : v.invoice_address,
    account_manager: v.account_manager || null,
    invoice_by: v.invoice_by || null,
    department: v.department ?? null,
    hourly_rate: v.hourly_rate ?? null,
    knowledge_sectors: v.knowledge_sectors ?? [],
    company_size: v.company_size || null,
  } as FormInput;
}

function AddressFields({ prefix, t }: { prefix: 'profile' | 'invoice_address'; t: (k: string) => string }) {
  const required = { required: true, message: t('addressRequired') };
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name={[prefix, 'address_1']} label={t('address1')} rules={[required]}>
          <Input data-testid={`${prefix}-address-1`} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name={[prefix, 'address_2']} label={t('address2')}>
          <Input data-testid={`${prefix}-address-2`} />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item
          name={[prefix, 'post_code']}
          label={t('postCode')}
          rules={[required, postCodeRule(t('invalidPostCode'))]}
          normalize={normalisePostCode}
        >
          <Input data-testid={`${prefix}-post-code`} maxLength={6} inputMode="numeric" />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name={[prefix, 'city']} label={t('city')} rules={[required]}>
          <Input data-testid={`${prefix}-city`} />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name={[prefix, 'country']} label={t('country')} rules={[required]}>
          <Select data-testid={`${prefix}-country`} options={[{ value: 1, label: t('sweden') }]} />
        </Form.Item>
      </Col>
    </Row>
  );
}

/**
 * Create or update a company or individual customer (admin, sales person):
 * every spec §3 field; the invoice address hides behind 'same as visiting
 * address'. A new customer is active at once and is mailed a password link.
 */
export default function CustomerFormPage({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('customerAdmin');
  const params = useParams();
  const uid = params.profile_uid ?? null;
  const role = useAreaRole();
  /** The role's customer list at customers/ (spec §2): the admin's active customers, the sales person's all. */
  const customerList = pathFor(role, role === 'sales' ? 'customersAll' : 'customersActive');
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  // The choices of the form's lists: empty while they load or when a read failed.
  const sectors = useList<BusinessSector>(fetchBusinessSectors).rows ?? [];
  const managers = useList<AccountManager>(accountManagers).rows ?? [];
  const deps = useList<NamedEntry>(departments).rows ?? [];
  const knowledge = useList<NamedEntry>(knowledgeSectors).rows ?? [];
  const sizes = useList<CompanySize>(companySizes).rows ?? [];
  const { loading } = useFormRecord(form, () => customerDetails(uid!), uid, toFormValues);
  const type = Form.useWatch('customer_type', form);
  const same = Form.useWatch('same_invoice_address', form);


  const onFinish = async (values: FormValues) => {
    setSubmitting(true);
    setError(null);
    try {
      const input = toInput(values);
      if (uid) await updateCustomer(uid, input);
      else await createCustomer(input);
      navigate(customerList);
    } catch (err) {
      if (isInlineError(err)) {
        const { fields, other } = splitServerErrors(err, FORM_FIELDS);
        // Nested server names (profile.city) are paths in the form.
        (form as unknown as { setFields: (f: Array<{ name: string[]; errors: string[] }>) => void }).setFields(
          fields.map((f) => ({ name: f.name.split('.'), errors: f.errors })),
        );
        setError(other.length ? other : null);
      }
    } finally {
      setSubmitting(false);
    }
  };

  if (loading) return <Loading />;
  const required = { required: true, message: t('required') };
  return (
    <div className="page" data-testid="customer-form-page">
      <PageTitle titleKey={titleKey} />
      <Card className="form-card">
        <MessageAlert messages={error} testId="customer-form-error" />
        <Form<FormValues>
          form={form}
          layout="vertical"
          name="customer"
          data-testid="customer-form"
          initialValues={{
            customer_type: 'Company',
            same_invoice_address: true,
            profile: emptyAddress(),
            invoice_address: emptyAddress(),
            knowledge_sectors: [],
            invoice_by: 'email',
          }}
          onFinish={onFinish}
        >
          <Form.Item name="customer_type" label={t('customerType')}>
            <Radio.Group data-testid="customer-type">
              <Radio value="Company" data-testid="customer-type-company">
                {t('company')}
              </Radio>
              <Radio value="Individual" data-testid="customer-type-individual">
                {t('individual')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="first_name" label={t('firstName')} rules={[required]}>
                <Input data-testid="customer-first-name" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="last_name" label={t('lastName')} rules={[required]}>
                <Input data-testid="customer-last-name" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="email"
                label={t('email')}
                extra={uid ? undefined : t('invitationNote')}
                rules={[required, emailRule(t('invalidEmail'))]}
              >
                <Input data-testid="customer-email" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="phone" label={t('phone')} rules={[required]}>
                <Input data-testid="customer-phone" autoComplete="off" />
              </Form.Item>
            </Col>
          </Row>
          {type === 'Company' && (
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="company_name" label={t('companyName')} rules={[required]}>
                  <Input data-testid="customer-company-name" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="company_registration_number"
                  label={t('registrationNumber')}
                  rules={[required, registrationNumberRule(t('invalidRegistrationNumber'))]}
                >
                  <Input data-testid="customer-regno" placeholder="123456-7890" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="sector" label={t('sector')} rules={[required]}>
                  <Select
                    data-testid="customer-sector"
                    options={sectors.map((s) => ({ value: s.id, label: sectorName(s.name) }))}
                    showSearch={FOLDED_SEARCH}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="company_size" label={t('companySize')}>
                  <Select data-testid="customer-company-size" allowClear options={sizes.map((s) => ({ value: s.value, label: s.label }))} />
                </Form.Item>
              </Col>
            </Row>
          )}
          <Typography.Title level={5}>{t('visitingAddress')}</Typography.Title>
          <AddressFields prefix="profile" t={t} />
          <Form.Item name="same_invoice_address" valuePropName="checked">
            <Checkbox data-testid="customer-same-invoice">{t('sameAsVisiting')}</Checkbox>
          </Form.Item>
          {!same && (
            <div data-testid="customer-invoice-address">
              <Typography.Title level={5}>{t('invoiceAddress')}</Typography.Title>
              <AddressFields prefix="invoice_address" t={t} />
            </div>
          )}
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="account_manager" label={t('accountManager')}>
                <Select
                  data-testid="customer-account-manager"
                  allowClear
                  showSearch={FOLDED_SEARCH}
                  options={managers.map((m) => ({ value: m.uid, label: `${m.first_name} ${m.last_name}` }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="invoice_by" label={t('invoiceBy')}>
                <Radio.Group data-testid="customer-invoice-by">
                  <Radio value="email">{t('invoiceByEmail')}</Radio>
                  <Radio value="post">{t('invoiceByPost')}</Radio>
                </Radio.Group>
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="department" label={t('department')}>
                <Select data-testid="customer-department" allowClear options={deps.map((d) => ({ value: d.id, label: namedIn(d, i18n.language) }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="hourly_rate" label={t('hourlyRate')} rules={[minRule(HOURLY_RATE_MIN, t('invalidRate'))]}>
                <InputNumber<number> data-testid="customer-hourly-rate" min={HOURLY_RATE_MIN} precision={2} decimalSeparator="," suffix="SEK" style={{ width: 220 }} />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="knowledge_sectors" label={t('knowledgeSectors')}>
                <Select
                  mode="multiple"
                  data-testid="customer-knowledge-sectors"
                  showSearch={FOLDED_SEARCH}
                  options={knowledge.map((k) => ({ value: k.id, label: namedIn(k, i18n.language) }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="customer-submit">
            {uid ? t('save') : t('create')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
