import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Result from 'antd/es/result';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import { sectorName } from '../../components/names';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/errors';
import { checkEmail, checkRegistrationNumber, fetchBusinessSectors, register } from '../../api/customers';
import { fetchLegalText } from '../../api/content';
import type { BusinessSector, CustomerType, RegistrationInput } from '../../types/customers';
import MessageAlert from '../../components/MessageAlert';
import { PublicCard, PublicLead, PublicTitle } from '../../components/PublicCard';
import { translateServerMessage } from '../../i18n';
import PublicLayout from './PublicLayout';
import * as R from './registration/rules';
import { FOLDED_SEARCH } from '../../components/foldedSearch';

/** Availability answers are debounced while typing and remembered per value. */
const CHECK_DEBOUNCE_MS = 400;

type Values = Omit<RegistrationInput, 'profile' | 'invoice_address'> & {
  profile: RegistrationInput['profile'];
  invoice_address: RegistrationInput['invoice_address'];
};

const emptyAddress = { address_1: '', address_2: '', city: '', post_code: '', country: R.COUNTRY_SWEDEN };

/** A cached availability check: value → available. */
function useAvailability(check: (v: string) => Promise<{ available: boolean }>) {
  const cache = useRef(new Map<string, boolean>());
  return async (value: string): Promise<boolean> => {
    const key = value.trim().toLowerCase();
    const known = cache.current.get(key);
    if (known !== undefined) return known;
    try {
      const { available } = await check(value.trim());
      cache.current.set(key, available);
      return available;
    } catch {
      // The format rule reports bad input; a failed check never blocks the form (the server decides on submit).
      return true;
    }
  };
}

/** The current versions of the terms and privacy policy (undefined while unknown: the server takes the current one). */
function useLegalVersions() {
  const [versions, setVersions] = useState<{ terms?: number; privacy?: number }>({});
  useEffect(() => {
    for (const kind of ['terms', 'privacy'] as const) {
      fetchLegalText(kind)
        .then((v) => v && setVersions((old) => ({ ...old, [kind]: v.version })))
        .catch(() => undefined);
    }
  }, []);
  return versions;
}

/** Public sign-up for companies and individuals (spec §2 /registration, §5 rules). */
export default function Registration() {
  const { t } = useTranslation('registration');
  const [form] = Form.useForm<Values>();
  const customerType = Form.useWatch('customer_type', form) as CustomerType | undefined;
  const sameInvoice = Form.useWatch('same_invoice_address', form) as boolean | undefined;
  const [sectors, setSectors] = useState<BusinessSector[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  const [done, setDone] = useState(false);
  const emailAvailable = useAvailability(checkEmail);
  const numberAvailable = useAvailability(checkRegistrationNumber);
  const company = customerType !== 'Individual';

  const versions = useLegalVersions();
  useEffect(() => {
    fetchBusinessSectors()
      .then(setSectors)
      .catch(() => setSectors([]));
  }, []);

  const availabilityRule = (format: R.Check, available: (v: string) => Promise<boolean>, takenKey: string) => ({
    validator: async (_r: unknown, value: unknown) => {
      if (format(value)) return; // the format rule speaks
      if (!(await available(String(value)))) throw new Error(t(takenKey, { ns: 'server' }));
    },
  });

  const onFinish = async (values: Values) => {
    setSubmitting(true);
    setError(null);
    const input: RegistrationInput = {
      ...values,
      customer_type: values.customer_type ?? 'Company',
      company_name: company ? values.company_name ?? '' : '',
      company_registration_number: company ? values.company_registration_number ?? '' : '',
      sector: company ? values.sector ?? '' : '',
      profile: { ...emptyAddress, ...values.profile },
      invoice_address: values.same_invoice_address ? emptyAddress : { ...emptyAddress, ...values.invoice_address },
      terms_accepted: values.terms_accepted === true,
      privacy_accepted: values.privacy_accepted === true,
      // The versions the links showed (the server records them with the time).
      terms_version: versions.terms,
      privacy_version: versions.privacy,
    };
    try {
      await register(input);
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const fields = Object.entries(err.fieldErrors);
        if (fields.length) {
          form.setFields(
            fields.map(([name, keys]) => ({ name: name.split('.') as never, errors: keys.map(translateServerMessage) })),
          );
          setError([t('fixErrors')]);
        } else {
          setError([translateServerMessage(err.body?.message ?? 'validation_failed')]);
        }
      }
    } finally {
      setSubmitting(false);
    }
  };

  if (done) {
    return (
      <PublicLayout titleKey="registration">
        <PublicCard data-testid="registration-page">
          <Result
            status="success"
            title={t('successTitle')}
            subTitle={<span data-testid="registration-success">{t('successText')}</span>}
            extra={
              <Link to="/login">
                <Button type="primary">{t('toLogin')}</Button>
              </Link>
            }
          />
        </PublicCard>
      </PublicLayout>
    );
  }

  const address = (prefix: 'profile' | 'invoice_address') => (
    <>
      <Form.Item label={t('address1')} name={[prefix, 'address_1']} rules={[R.rule(t, R.required)]}>
        <Input data-testid={`reg-${prefix}-address1`} autoComplete="address-line1" />
      </Form.Item>
      <Form.Item label={t('address2')} name={[prefix, 'address_2']}>
        <Input data-testid={`reg-${prefix}-address2`} autoComplete="address-line2" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={10}>
          <Form.Item label={t('postCode')} name={[prefix, 'post_code']} rules={[R.rule(t, R.postCode)]}>
            <Input data-testid={`reg-${prefix}-postcode`} maxLength={5} inputMode="numeric" autoComplete="postal-code" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={14}>
          <Form.Item label={t('city')} name={[prefix, 'city']} rules={[R.rule(t, R.required)]}>
            <Input data-testid={`reg-${prefix}-city`} autoComplete="address-level2" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t('country')} name={[prefix, 'country']} rules={[R.rule(t, R.country)]}>
        <Select data-testid={`reg-${prefix}-country`} options={[{ value: R.COUNTRY_SWEDEN, label: t('sweden') }]} />
      </Form.Item>
    </>
  );

  return (
    <PublicLayout titleKey="registration">
      <PublicCard className="registration-card" data-testid="registration-page" style={{ maxWidth: 720 }}>
        <PublicTitle level={2} data-testid="page-title">
          {t('title')}
        </PublicTitle>
        <PublicLead>{t('intro')}</PublicLead>
        <MessageAlert messages={error} testId="registration-error" />
        <Form<Values>
          form={form}
          layout="vertical"
          name="registration"
          data-testid="registration-form"
          requiredMark={false}
          onFinish={onFinish}
          disabled={submitting}
          initialValues={{
            customer_type: 'Company',
            same_invoice_address: true,
            profile: emptyAddress,
            invoice_address: emptyAddress,
            terms_accepted: false,
            privacy_accepted: false,
          }}
        >
          <Form.Item name="customer_type" label={t('customerType')}>
            <Radio.Group optionType="button" buttonStyle="solid" data-testid="reg-type">
              <Radio.Button value="Company" data-testid="reg-type-company">
                {t('company')}
              </Radio.Button>
              <Radio.Button value="Individual" data-testid="reg-type-individual">
                {t('individual')}
              </Radio.Button>
            </Radio.Group>
          </Form.Item>

          {company && (
            <>
              <PublicTitle level={4}>{t('companySection')}</PublicTitle>
              <Form.Item label={t('companyName')} name="company_name" rules={[R.rule(t, R.required)]}>
                <Input data-testid="reg-company-name" autoComplete="organization" />
              </Form.Item>
              <Row gutter={16}>
                <Col xs={24} sm={12}>
                  <Form.Item
                    label={t('registrationNumber')}
                    name="company_registration_number"
                    validateDebounce={CHECK_DEBOUNCE_MS}
                    extra={t('registrationNumberHint')}
                    rules={[
                      R.rule(t, R.registrationNumber),
                      availabilityRule(R.registrationNumber, numberAvailable, 'registration_number_taken'),
                    ]}
                  >
                    <Input data-testid="reg-regno" placeholder="123456-7890" maxLength={11} />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={12}>
                  <Form.Item label={t('sector')} name="sector" rules={[R.rule(t, R.required)]}>
                    <Select
                      data-testid="reg-sector"
                      showSearch={FOLDED_SEARCH}
                      placeholder={t('sectorPlaceholder')}
                      options={sectors.map((s) => ({ value: s.id, label: sectorName(s.name) }))}
                    />
                  </Form.Item>
                </Col>
              </Row>
            </>
          )}

          <PublicTitle level={4}>{t('personSection')}</PublicTitle>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item label={t('firstName')} name="first_name" rules={[R.rule(t, R.required)]}>
                <Input data-testid="reg-first-name" autoComplete="given-name" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label={t('lastName')} name="last_name" rules={[R.rule(t, R.required)]}>
                <Input data-testid="reg-last-name" autoComplete="family-name" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item
                label={t('email')}
                name="email"
                validateDebounce={CHECK_DEBOUNCE_MS}
                normalize={(v: unknown) => (typeof v === 'string' ? v.trim() : v)}
                rules={[R.rule(t, R.email), availabilityRule(R.email, emailAvailable, 'email_exists')]}
              >
                <Input data-testid="reg-email" autoComplete="email" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label={t('phone')} name="phone" rules={[R.rule(t, R.phone)]}>
                <Input data-testid="reg-phone" autoComplete="tel" placeholder="+46 70 123 45 67" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item label={t('password')} name="password" rules={[R.rule(t, R.password)]} extra={t('passwordHint')}>
                <Input.Password data-testid="reg-password" autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label={t('confirmPassword')} name="confirm_password" dependencies={['password']} rules={[R.confirmRule(t)]}>
                <Input.Password data-testid="reg-confirm-password" autoComplete="new-password" />
              </Form.Item>
            </Col>
          </Row>

          <PublicTitle level={4}>{t('visitingAddress')}</PublicTitle>
          {address('profile')}
          <Form.Item name="same_invoice_address" valuePropName="checked">
            <Checkbox data-testid="reg-same-invoice">{t('sameInvoiceAddress')}</Checkbox>
          </Form.Item>
          {sameInvoice === false && (
            <>
              <PublicTitle level={4}>{t('invoiceAddress')}</PublicTitle>
              {address('invoice_address')}
            </>
          )}

          <div className="form-links legal-read-links" data-testid="reg-legal-links">
            <Link to="/terms" target="_blank" data-testid="reg-terms-link">
              {t('legal.readTerms', { ns: 'legal' })}
            </Link>
            <span aria-hidden="true"> · </span>
            <Link to="/privacy" target="_blank" data-testid="reg-privacy-link">
              {t('legal.readPrivacy', { ns: 'legal' })}
            </Link>
          </div>
          <Form.Item name="terms_accepted" valuePropName="checked" rules={[R.rule(t, R.accepted('terms_not_agreed'))]}>
            <Checkbox data-testid="reg-terms">{t('acceptTerms')}</Checkbox>
          </Form.Item>
          <Form.Item name="privacy_accepted" valuePropName="checked" rules={[R.rule(t, R.accepted('privacy_not_agreed'))]}>
            <Checkbox data-testid="reg-privacy">{t('acceptPrivacy')}</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={submitting} data-testid="reg-submit">
            {t('submit')}
          </Button>
        </Form>
        <div className="form-links">
          <Link to="/login">{t('haveAccount')}</Link>
        </div>
      </PublicCard>
    </PublicLayout>
  );
}
