// As on the login page (its budget, src/budget.test.ts): no antd component (Button, Input, Password, Form, Row/Col,
// Select, Radio, Checkbox, Result: native controls drawn as antd's, components/plain and styles.css `.plain-*`);
// the Alert and the done screen load with the first submit.
import Button from '../../components/plain/PlainButton';
import Input, { PlainPassword as Password } from '../../components/plain/PlainInput';
import { lazy, Suspense, useEffect, useReducer, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import { ApiError } from '../../api/errors';
import { themedModule } from '../../components/themed';
// The API's modules load with the API client's Amplify (api/setup.ts `loadApi`), which every call here waits
// for anyway: the form is usable before them (src/budget.test.ts).
const customersApi = () => import('../../api/customers');
const contentApi = () => import('../../api/content');
import type { BusinessSector, RegistrationInput } from '../../types/customers';
import MessageAlert, { loadMessageAlert } from '../../components/LazyMessageAlert';
import { sectorName } from '../../components/names';
import Field, { fieldAria, type FieldError } from '../../components/PlainField';
import { PublicCard, PublicLead, PublicTitle } from '../../components/PublicCard';
import { translateServerMessage, useServerTexts } from '../../i18n';
import PublicLayout from './PublicLayout';
import './registration/registration.css';
import * as R from '../../validation/checks';
import { normalisePostCode } from '../../validation/fields';

// With antd's theme (components/AntdTheme.tsx): the page itself has none.
const loadDone = () => themedModule(() => import('./registration/Done'));
const Done = lazy(loadDone);

/** Availability answers are debounced while typing and remembered per value. */
const CHECK_DEBOUNCE_MS = 400;

/**
 * The fields whose value is checked for availability: only a well-formed value, once it has stayed
 * CHECK_DEBOUNCE_MS unchanged (their errors follow the value of then, as antd's `validateDebounce` did).
 */
const AVAILABILITY = {
  email: { format: R.email, check: async (v: string) => (await customersApi()).checkEmail(v), taken: 'email_exists' },
  company_registration_number: {
    format: R.registrationNumber,
    check: async (v: string) => (await customersApi()).checkRegistrationNumber(v),
    taken: 'registration_number_taken',
  },
} as const;
type Checked = keyof typeof AVAILABILITY;
const isChecked = (name: string): name is Checked => name in AVAILABILITY;

/** The form's values by field name; nested ones as the server names them in its errors ('profile.post_code'). */
type Values = Record<string, string | boolean>;

const addressValues = (prefix: string): Values => ({
  [`${prefix}.address_1`]: '',
  [`${prefix}.address_2`]: '',
  [`${prefix}.post_code`]: '',
  [`${prefix}.city`]: '',
  [`${prefix}.country`]: String(R.COUNTRY_SWEDEN),
});

const INITIAL: Values = {
  customer_type: 'Company',
  company_name: '',
  company_registration_number: '',
  sector: '',
  first_name: '',
  last_name: '',
  email: '',
  phone: '',
  password: '',
  confirm_password: '',
  ...addressValues('profile'),
  same_invoice_address: true,
  ...addressValues('invoice_address'),
  terms_accepted: false,
  privacy_accepted: false,
};

const emptyAddress = { address_1: '', address_2: '', city: '', post_code: '', country: R.COUNTRY_SWEDEN };

const addressChecks = (prefix: string): Record<string, R.Check> => ({
  [`${prefix}.address_1`]: R.required,
  [`${prefix}.post_code`]: R.postCode,
  [`${prefix}.city`]: R.required,
  [`${prefix}.country`]: R.country,
});

/** The control's id, as antd's Form named it (`registration_profile_post_code`). */
const idOf = (name: string) => `registration_${name.replace('.', '_')}`;

/** The current versions of the terms and privacy policy (undefined while unknown: the server takes the current one). */
// Read by hand, not with api/useList: the hook would be one more chunk on this budgeted page (src/budget.test.ts).
function useLegalVersions() {
  const [versions, setVersions] = useState<{ terms?: number; privacy?: number }>({});
  useEffect(() => {
    for (const kind of ['terms', 'privacy'] as const) {
      contentApi()
        .then((api) => api.fetchLegalText(kind))
        .then((v) => v && setVersions((old) => ({ ...old, [kind]: v.version })))
        .catch(() => undefined);
    }
  }, []);
  return versions;
}

/** Public sign-up for companies and individuals (spec §2 /registration, §5 rules). */
export default function Registration() {
  const { t } = useTranslation('registration');
  // The fields' rules speak in the server's texts (its error keys): loaded as the page shows, not before it (its
  // budget, src/budget.test.ts); the page draws again once they are in.
  useServerTexts(true);
  const [values, setValues] = useState<Values>(INITIAL);
  /**
   * The values the fields' errors are shown for: a field's rule speaks once it has changed (or on submit),
   * as antd's Form checked on change; the availability-checked fields' after the debounce.
   */
  const [shown, setShown] = useState<Values>({});
  /** The server's errors per field (its 400 answer), until the field changes or the form is sent again. */
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [sectors, setSectors] = useState<BusinessSector[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  const [done, setDone] = useState(false);
  /** Availability answers: `<field> <value>` → available. */
  const answers = useRef(new Map<string, boolean>());
  const [, answered] = useReducer((n: number) => n + 1, 0);
  const timers = useRef<Partial<Record<Checked, number>>>({});
  // The sign-up's Idempotency-Key: kept while the same form is sent again (a
  // second press after a lost answer is answered from the first, creating and
  // mailing nothing twice); a changed form is a new request with a new key.
  const sent = useRef<{ body: string; key: string } | null>(null);
  const company = values.customer_type !== 'Individual';
  const sameInvoice = values.same_invoice_address === true;

  const versions = useLegalVersions();
  useEffect(() => {
    customersApi()
      .then((api) => api.fetchBusinessSectors())
      .then(setSectors)
      .catch(() => setSectors([]));
  }, []);
  useEffect(() => () => Object.values(timers.current).forEach((id) => window.clearTimeout(id)), []);
  /** The first field in error after a refused submit: focused once the form is enabled again. */
  const [focusField, setFocusField] = useState<string | null>(null);
  useEffect(() => {
    if (!focusField || submitting) return;
    // Centred, so the field's message below it is in view too (focus alone stops at the window's edge).
    const field = document.getElementById(idOf(focusField));
    field?.focus({ preventScroll: true });
    field?.scrollIntoView?.({ block: 'center' });
    setFocusField(null);
  }, [focusField, submitting]);

  /** Each shown field's rule, in the form's order (the first failing one gets the focus on submit). */
  const checks: Record<string, R.Check> = {
    ...(company && { company_name: R.required, company_registration_number: R.registrationNumber, sector: R.required }),
    first_name: R.required,
    last_name: R.required,
    email: R.email,
    phone: R.phone,
    password: R.password,
    confirm_password: R.confirmation(values.password),
    ...addressChecks('profile'),
    ...(!sameInvoice && addressChecks('invoice_address')),
    terms_accepted: R.accepted('terms_not_agreed'),
    privacy_accepted: R.accepted('privacy_not_agreed'),
  };

  const answerKey = (name: Checked, value: unknown) => `${name} ${String(value).trim().toLowerCase()}`;
  /** Whether a well-formed value is free: remembered, or asked now (a failed check never blocks: the server decides). */
  const available = async (name: Checked, value: unknown): Promise<boolean> => {
    const { format, check } = AVAILABILITY[name];
    if (format(value)) return true; // the format rule speaks; a malformed value is never sent
    const key = answerKey(name, value);
    const known = answers.current.get(key);
    if (known !== undefined) return known;
    try {
      const { available } = await check(String(value).trim());
      answers.current.set(key, available);
      answered();
      return available;
    } catch {
      return true;
    }
  };

  const problemOf = (name: string, value: unknown): string | null =>
    checks[name]?.(value) ?? (isChecked(name) && answers.current.get(answerKey(name, value)) === false ? AVAILABILITY[name].taken : null);

  const errorOf = (name: string): FieldError => {
    if (serverErrors[name]) return serverErrors[name];
    if (!(name in shown)) return null;
    const key = problemOf(name, shown[name]);
    return key ? t(key, { ns: 'server' }) : null;
  };

  const change = (name: string, value: string | boolean) => {
    setValues((v) => ({ ...v, [name]: value }));
    setServerErrors(({ [name]: _, ...rest }) => rest);
    if (isChecked(name)) {
      window.clearTimeout(timers.current[name]);
      timers.current[name] = window.setTimeout(() => {
        setShown((s) => ({ ...s, [name]: value }));
        void available(name, value);
      }, CHECK_DEBOUNCE_MS);
    } else {
      setShown((s) => ({ ...s, [name]: value }));
    }
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting) return;
    void loadMessageAlert();
    void loadDone();
    Object.values(timers.current).forEach((id) => window.clearTimeout(id));
    setShown(values);
    setServerErrors({});
    setSubmitting(true);
    // Every rule, and the availability of the well-formed checked values (as antd's Form waited for it).
    const taken = await Promise.all(
      (Object.keys(AVAILABILITY) as Checked[]).map(async (name) => (name in checks && !(await available(name, values[name])) ? name : null)),
    );
    const invalid = Object.keys(checks).find((name) => problemOf(name, values[name]) || taken.includes(name as Checked));
    if (invalid) {
      setSubmitting(false);
      setFocusField(invalid);
      return;
    }
    setError(null);
    const v = values as Record<string, string> & Record<'same_invoice_address' | 'terms_accepted' | 'privacy_accepted', boolean>;
    const address = (prefix: string) => ({
      address_1: v[`${prefix}.address_1`],
      address_2: v[`${prefix}.address_2`],
      city: v[`${prefix}.city`],
      post_code: normalisePostCode(v[`${prefix}.post_code`]),
      country: Number(v[`${prefix}.country`]),
    });
    const input: RegistrationInput = {
      customer_type: company ? 'Company' : 'Individual',
      first_name: v.first_name,
      last_name: v.last_name,
      email: v.email,
      password: v.password,
      confirm_password: v.confirm_password,
      phone: v.phone,
      company_name: company ? v.company_name : '',
      company_registration_number: company ? v.company_registration_number : '',
      sector: company ? v.sector : '',
      profile: address('profile'),
      same_invoice_address: sameInvoice,
      invoice_address: sameInvoice ? emptyAddress : address('invoice_address'),
      terms_accepted: v.terms_accepted,
      privacy_accepted: v.privacy_accepted,
      // The versions the links showed (the server records them with the time).
      terms_version: versions.terms,
      privacy_version: versions.privacy,
    };
    try {
      const customers = await customersApi();
      const body = JSON.stringify(input);
      if (sent.current?.body !== body) sent.current = { body, key: customers.newIdempotencyKey() };
      await customers.register(input, sent.current.key);
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const fields = Object.entries(err.fieldErrors);
        if (fields.length) {
          setServerErrors(Object.fromEntries(fields.map(([name, keys]) => [name, keys.map(translateServerMessage)])));
          setError([t('fixErrors')]);
          // As after a refused client check: the first refused field, in the form's order, in view and focused
          // (a weak password is refused by the server only, far down the form).
          const refused = new Set(fields.map(([name]) => name));
          setFocusField(Object.keys(checks).find((name) => refused.has(name)) ?? fields[0][0]);
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
          <Suspense fallback={null}>
            <Done />
          </Suspense>
        </PublicCard>
      </PublicLayout>
    );
  }

  /** A labelled field: its control gets the id, the state and the links to its texts. */
  const field = (name: string, label: ReactNode, control: (own: ReturnType<typeof fieldAria> & { id: string; disabled: boolean }) => ReactNode, extra?: ReactNode) => {
    const id = idOf(name);
    const fieldError = errorOf(name);
    return (
      <Field id={id} label={label} error={fieldError} extra={extra}>
        {control({ id, disabled: submitting, ...fieldAria(id, fieldError, extra) })}
      </Field>
    );
  };

  const text = (
    name: string,
    label: string,
    testId: string,
    props: { autoComplete?: string; placeholder?: string; maxLength?: number; inputMode?: 'numeric' } = {},
    extra?: string,
    Control: typeof Input | typeof Password = Input,
  ) =>
    field(
      name,
      label,
      (own) => (
        <Control
          {...own}
          value={values[name] as string}
          // E-mail addresses without surrounding spaces (pasted or autofilled), as typed.
          onChange={(e) => change(name, name === 'email' ? e.target.value.trim() : e.target.value)}
          status={errorOf(name) ? 'error' : undefined}
          aria-required={name in checks ? 'true' : undefined}
          data-testid={testId}
          {...props}
        />
      ),
      extra,
    );

  /** A native select (phones show their own picker) drawn as antd's Select (styles.css `.plain-select`). */
  const select = (name: string, label: string, testId: string, options: Array<{ value: string; label: string }>, placeholder?: string) =>
    field(name, label, (own) => (
      <select
        {...own}
        className={`plain-select${values[name] === '' ? ' plain-select-empty' : ''}${errorOf(name) ? ' plain-select-error' : ''}`}
        value={values[name] as string}
        onChange={(e) => change(name, e.target.value)}
        aria-required="true"
        data-testid={testId}
      >
        {placeholder != null && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    ));

  /** A checkbox with its text (styles.css `.plain-checkbox`), its error below as a field's. */
  const checkbox = (name: string, label: string, testId: string) => {
    const id = idOf(name);
    const fieldError = errorOf(name);
    return (
      <Field id={id} error={fieldError}>
        <label className="plain-checkbox">
          <input
            type="checkbox"
            id={id}
            checked={values[name] === true}
            onChange={(e) => change(name, e.target.checked)}
            disabled={submitting}
            {...fieldAria(id, fieldError)}
            data-testid={testId}
          />
          <span>{label}</span>
        </label>
      </Field>
    );
  };

  const address = (prefix: 'profile' | 'invoice_address') => (
    <>
      {text(`${prefix}.address_1`, t('address1'), `reg-${prefix}-address1`, { autoComplete: 'address-line1' })}
      {text(`${prefix}.address_2`, t('address2'), `reg-${prefix}-address2`, { autoComplete: 'address-line2' })}
      <div className="plain-form-row plain-form-row-10-14">
        {text(`${prefix}.post_code`, t('postCode'), `reg-${prefix}-postcode`, { maxLength: 6, inputMode: 'numeric', autoComplete: 'postal-code' })}
        {text(`${prefix}.city`, t('city'), `reg-${prefix}-city`, { autoComplete: 'address-level2' })}
      </div>
      {select(`${prefix}.country`, t('country'), `reg-${prefix}-country`, [{ value: String(R.COUNTRY_SWEDEN), label: t('sweden') }])}
    </>
  );

  return (
    <PublicLayout titleKey="registration">
      <PublicCard className="registration-card" data-testid="registration-page" style={{ maxWidth: 720 }}>
        <PublicTitle level={2} data-testid="page-title">
          {t('title')}
        </PublicTitle>
        <PublicLead>{t('intro')}</PublicLead>
        <Suspense fallback={null}>
          <MessageAlert messages={error} testId="registration-error" />
        </Suspense>
        <form id="registration" className="plain-form" data-testid="registration-form" noValidate onSubmit={(e) => void onSubmit(e)}>
          <Field id="registration_customer_type" label={t('customerType')} labelId="registration_customer_type_label">
            {/* antd's solid radio buttons (styles.css `.plain-radio-buttons`): native radios, one tab stop, arrows move. */}
            <div role="radiogroup" aria-labelledby="registration_customer_type_label" className="plain-radio-buttons" data-testid="reg-type">
              {(['Company', 'Individual'] as const).map((type) => (
                <label key={type} className={values.customer_type === type ? 'plain-radio-button plain-radio-button-checked' : 'plain-radio-button'}>
                  <input
                    type="radio"
                    name="customer_type"
                    value={type}
                    checked={values.customer_type === type}
                    onChange={() => change('customer_type', type)}
                    disabled={submitting}
                    data-testid={`reg-type-${type.toLowerCase()}`}
                  />
                  <span>{type === 'Company' ? t('company') : t('individual')}</span>
                </label>
              ))}
            </div>
          </Field>

          {company && (
            <>
              <PublicTitle level={4}>{t('companySection')}</PublicTitle>
              {text('company_name', t('companyName'), 'reg-company-name', { autoComplete: 'organization' })}
              <div className="plain-form-row">
                {text('company_registration_number', t('registrationNumber'), 'reg-regno', { placeholder: '123456-7890', maxLength: 11 }, t('registrationNumberHint'))}
                {select(
                  'sector',
                  t('sector'),
                  'reg-sector',
                  sectors.map((s) => ({ value: s.id, label: sectorName(s.name) })),
                  t('sectorPlaceholder'),
                )}
              </div>
            </>
          )}

          <PublicTitle level={4}>{t('personSection')}</PublicTitle>
          <div className="plain-form-row">
            {text('first_name', t('firstName'), 'reg-first-name', { autoComplete: 'given-name' })}
            {text('last_name', t('lastName'), 'reg-last-name', { autoComplete: 'family-name' })}
          </div>
          <div className="plain-form-row">
            {text('email', t('email'), 'reg-email', { autoComplete: 'email' })}
            {text('phone', t('phone'), 'reg-phone', { autoComplete: 'tel', placeholder: '+46 70 123 45 67' })}
          </div>
          <div className="plain-form-row">
            {text('password', t('password'), 'reg-password', { autoComplete: 'new-password' }, t('passwordHint'), Password)}
            {text('confirm_password', t('confirmPassword'), 'reg-confirm-password', { autoComplete: 'new-password' }, undefined, Password)}
          </div>

          <PublicTitle level={4}>{t('visitingAddress')}</PublicTitle>
          {address('profile')}
          <div className="plain-form-item">
            <label className="plain-checkbox">
              <input
                type="checkbox"
                id={idOf('same_invoice_address')}
                checked={sameInvoice}
                onChange={(e) => change('same_invoice_address', e.target.checked)}
                disabled={submitting}
                data-testid="reg-same-invoice"
              />
              <span>{t('sameInvoiceAddress')}</span>
            </label>
          </div>
          {!sameInvoice && (
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
          {checkbox('terms_accepted', t('acceptTerms'), 'reg-terms')}
          {checkbox('privacy_accepted', t('acceptPrivacy'), 'reg-privacy')}
          <Button type="primary" htmlType="submit" block size="large" loading={submitting} disabled={submitting} data-testid="reg-submit">
            {t('submit')}
          </Button>
        </form>
        <div className="form-links">
          <Link to="/login">{t('haveAccount')}</Link>
        </div>
      </PublicCard>
    </PublicLayout>
  );
}
