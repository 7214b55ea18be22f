import { Alert, Button, Card, Checkbox, Col, DatePicker, Form, Input, Row, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from '../../i18n/dates';
import { useEffect, useMemo, useState } from 'react';
import { useList } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import Link from '../../components/Link';
import { caseCustomers, caseTypes, createCase, defaultCaseAddress, getCase, updateCase } from '../../api/cases';
import { listKnowledgeSectors } from '../../api/people';
import type { CasePayload } from '../../types/cases';
import { api } from '../../api/client';
import { applyServerErrors } from '../../api/formErrors';
import MessageAlert from '../../components/MessageAlert';
import { FOLDED_SEARCH } from '../../components/foldedSearch';
import { hasRoute, pathFor, useAreaRole } from '../../routes/pathFor';
import { useSession } from '../../store/session';
import { hasPermission } from '../../auth/permissions';
import { hasService } from '../subscriptions/customerServices';
import { DocumentPicker, uploadAll } from './CaseDocuments';
import { createViaOf } from './caseRules';
import { parseHours } from './status';
import { countryName, namedIn } from '../../format';
import { normalisePostCode } from '../../validation/fields';
import { identityNumberRule, postCodeAbroadRule, postCodeRule } from '../../validation/formRules';
import { COUNTRY_CODES, SWEDEN } from '../../types/countries';
import type { NamedEntry } from '../../types/named';
import { HOURS_MIN, IDENTITY_NUMBER_MAX_CHARS, SUBJECT_MAX_CHARS } from '../../validation/bounds';
import { useFeedback } from '../../layout/feedback';
import PageTitle from '../../components/PageTitle';

interface Values {
  customer?: string;
  subject: string;
  description: string;
  type?: number;
  knowledge_sector?: number | null;
  estimated_hours: string;
  client?: string;
  direct_assign_lawyer?: string;
  counterpart?: string;
  counterpart_identity_number?: string;
  disqualification_control?: boolean;
  short_internal_description?: string;
  start_date?: Dayjs | null;
  deadline?: Dayjs | null;
  contact_person?: string;
  note?: string;
  address_1?: string;
  city?: string;
  post_code?: string;
  country?: string;
}

const FIELDS = [
  'customer', 'subject', 'description', 'type', 'knowledge_sector', 'estimated_hours', 'client', 'direct_assign_lawyer', 'counterpart',
  'counterpart_identity_number',
  'short_internal_description', 'start_date', 'deadline', 'contact_person', 'note', 'address_1', 'city', 'post_code', 'country',
];
const ALIASES = { 'address.address_1': 'address_1', 'address.city': 'city', 'address.post_code': 'post_code', 'address.country': 'country' };

/**
 * Builds the request body from the form (hours keep their comma; the server
 * parses it). The customer side's form has no staff-only fields: they are left
 * out, so an edit keeps what staff set.
 */
export function toPayload(v: Values, customerSide = false): CasePayload {
  const date = (d?: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null);
  const body: CasePayload = {
    customer: v.customer,
    subject: v.subject ?? '',
    description: v.description ?? '',
    type: v.type ?? null,
    knowledge_sector: v.knowledge_sector ?? null,
    estimated_hours: (v.estimated_hours ?? '').trim(),
    client: v.client ?? '',
    direct_assign_lawyer: v.direct_assign_lawyer || null,
    counterpart: v.counterpart ?? '',
    counterpart_identity_number: (v.counterpart_identity_number ?? '').trim() || null,
    disqualification_control: !!v.disqualification_control,
    short_internal_description: v.short_internal_description ?? '',
    start_date: date(v.start_date),
    deadline: date(v.deadline),
    contact_person: v.contact_person ?? '',
    note: v.note ?? '',
    address: { address_1: v.address_1 ?? '', city: v.city ?? '', post_code: v.post_code ?? '', country: v.country ?? '' },
  };
  if (customerSide) {
    delete body.direct_assign_lawyer;
    delete body.disqualification_control;
    delete body.short_internal_description;
    delete body.knowledge_sector;
  }
  return body;
}

/** Every country, named in `lang` and in its alphabetical order, Sweden (the customers' country) first. */
function countryOptions(lang: string): { value: string; label: string }[] {
  const collator = new Intl.Collator(lang.startsWith('en') ? 'en' : 'sv');
  const all = COUNTRY_CODES.map((c) => ({ value: c as string, label: countryName(c, lang) }));
  const [first, rest] = [all.filter((o) => o.value === SWEDEN), all.filter((o) => o.value !== SWEDEN)];
  return [...first, ...rest.sort((a, b) => collator.compare(a.label, b.label))];
}

/** Case create (every role that may) and edit: every spec §3 field, spec §5 validation. */
export default function CaseForm({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation('cases');
  const lang = i18n.language;
  const { message } = useFeedback();
  const { case_uid } = useParams();
  const navigate = useNavigate();
  const services = useSession((s) => s.services?.purchased_services);
  // A contact without "view time bank" reads no hour row: the server alone says whether hours are held.
  const seesTimeBank = useSession((s) => hasPermission(s.user?.user_type, s.permission, 'view_time_bank'));
  const role = useAreaRole();
  const via = createViaOf(role);
  const customerSide = via === 'customer';
  const staff = via === 'staff';
  const [form] = Form.useForm<Values>();
  const typeList = useList<NamedEntry>(caseTypes).rows ?? [];
  // Case types and countries are named in the reader's language.
  const types = useMemo(() => typeList.map((x) => ({ value: x.id, label: namedIn(x, lang) })), [typeList, lang]);
  const countries = useMemo(() => countryOptions(lang), [lang]);
  // The customer side picks no knowledge sector.
  const sectorList = useList<NamedEntry>(listKnowledgeSectors, customerSide ? null : '').rows ?? [];
  const sectors = useMemo(() => sectorList.map((x) => ({ value: x.id, label: namedIn(x, lang) })), [sectorList, lang]);
  const [customers, setCustomers] = useState<{ value: string; label: string }[]>([]);
  const [lawyers, setLawyers] = useState<{ value: string; label: string }[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const { t: td } = useTranslation('caseDocuments');
  // Create mode: documents picked on the form, uploaded once the case exists.
  const [documents, setDocuments] = useState<File[]>([]);

  useEffect(() => {
    if (!customerSide) void searchCustomers('');
    if (staff) void searchLawyers('');
    if (case_uid)
      getCase(case_uid)
        .then((c) => {
          setCustomers((old) => (old.some((o) => o.value === c.customer) ? old : [...old, { value: c.customer, label: c.customer_name }]));
          form.setFieldsValue({
            customer: c.customer,
            subject: c.subject,
            description: c.description,
            type: c.type.id,
            knowledge_sector: c.knowledge_sector?.id ?? null,
            estimated_hours: String(c.estimated_hours).replace('.', ','),
            client: c.client,
            direct_assign_lawyer: c.direct_assign_lawyer ?? undefined,
            counterpart: c.counterpart,
            counterpart_identity_number: c.counterpart_identity_number ?? '',
            disqualification_control: c.disqualification_control,
            short_internal_description: c.short_internal_description,
            start_date: c.start_date ? dayjs(c.start_date) : null,
            deadline: c.deadline ? dayjs(c.deadline) : null,
            contact_person: c.contact_person,
            note: c.note,
            ...c.address,
          });
        })
        .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [case_uid]);

  async function searchCustomers(q: string) {
    try {
      setCustomers((await caseCustomers(q)).map((c) => ({ value: c.uid, label: c.name })));
    } catch {
      /* notified */
    }
  }
  async function searchLawyers(q: string) {
    try {
      const l = await api.get<{ uid: string; full_name: string }[]>('/lawyer/dropdown/list/', { query: { search: q } });
      setLawyers(l.map((x) => ({ value: x.uid, label: x.full_name })));
    } catch {
      /* notified */
    }
  }

  const submit = async (v: Values) => {
    setErrors([]);
    setSaving(true);
    try {
      const body = toPayload(v, customerSide);
      const saved = case_uid ? await updateCase(case_uid, body) : await createCase(via, body);
      void message.success(case_uid ? t('form.saved') : t('form.created', { number: saved.case_number }));
      // A refused document does not undo the case: its reasons go to the details page.
      const documentErrors = !case_uid && documents.length ? await uploadAll(td, saved.uid, documents) : [];
      navigate(pathFor(role, 'caseDetails', { id: saved.uid }), documentErrors.length ? { state: { documentErrors: [td('afterCreate'), ...documentErrors] } } : undefined);
    } catch (err) {
      setErrors(applyServerErrors(form, err, FIELDS, ALIASES));
      void message.error(t('form.notSaved'));
    } finally {
      setSaving(false);
    }
  };

  /** A new case's address defaults from the customer's visiting address (the chosen one; the customer side: its own). */
  const addressFrom = (uid: string | undefined) => {
    if (case_uid || (!uid && !customerSide) || form.getFieldValue('address_1')) return;
    defaultCaseAddress(uid)
      .then((a) => {
        if (form.getFieldValue('address_1') || !a?.address_1) return;
        form.setFieldsValue({ address_1: a.address_1, post_code: a.post_code, city: a.city, country: a.country || form.getFieldValue('country') });
      })
      .catch(() => undefined);
  };
  useEffect(() => {
    if (customerSide && !case_uid) addressFrom(undefined);
    // once, for a new case of the customer side
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const needsService = customerSide && !case_uid && seesTimeBank && !hasService(services, 1);
  const req = (key: string) => [{ required: true, whitespace: true, message: t(key) }];
  return (
    <div className="page" data-testid="case-form-page">
      <PageTitle titleKey={titleKey} />
      {needsService && <Alert type="warning" showIcon title={t('form.consultancyRequired')} style={{ marginBottom: 16 }} data-testid="case-consultancy-required" />}
      <MessageAlert messages={errors.length ? [errors.join(' ')] : null} testId="case-form-errors" />
      <Card>
        <Form<Values> form={form} layout="vertical" onFinish={submit} data-testid="case-form" initialValues={{ country: SWEDEN }}>
          <Row gutter={30}>
            {!customerSide && (
              <Col xs={24} md={12}>
                <Form.Item name="customer" label={t('fields.customer')} rules={[{ required: true, message: t('form.customerRequired') }]}>
                  <Select
                    showSearch
                    filterOption={false}
                    onSearch={searchCustomers}
                    onChange={(uid: string) => addressFrom(uid)}
                    options={customers}
                    disabled={!!case_uid}
                    data-testid="case-customer"
                  />
                </Form.Item>
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item name="subject" label={t('fields.subject')} rules={req('form.subjectRequired')}>
                <Input maxLength={SUBJECT_MAX_CHARS} data-testid="case-subject" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="type"
                label={t('fields.type')}
                rules={[{ required: true, message: t('form.typeRequired') }]}
                extra={
                  hasRoute(role, 'caseTypes') ? (
                    <Link to={pathFor(role, 'caseTypes')} data-testid="case-types-link">
                      {t('form.manageTypes')}
                    </Link>
                  ) : undefined
                }
              >
                <Select showSearch={FOLDED_SEARCH} options={types} data-testid="case-type" />
              </Form.Item>
            </Col>
            {!customerSide && (
              <Col xs={24} md={12}>
                {/* The legal statistics count cases by type and knowledge sector. */}
                <Form.Item name="knowledge_sector" label={t('fields.knowledge_sector')}>
                  <Select allowClear showSearch={FOLDED_SEARCH} options={sectors} data-testid="case-knowledge-sector" />
                </Form.Item>
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item
                name="estimated_hours"
                label={t('fields.estimated_hours')}
                extra={customerSide ? t('form.hoursOptional') : undefined}
                rules={[
                  // The customer side may leave the estimate to the firm.
                  ...(customerSide ? [] : req('form.hoursRequired')),
                  { validator: (_, v) => (!v || (parseHours(v) ?? 0) >= HOURS_MIN ? Promise.resolve() : Promise.reject(new Error(t('hours.invalid')))) },
                ]}
              >
                <Input inputMode="decimal" placeholder="2,5" data-testid="case-hours" />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="description" label={t('fields.description')} rules={req('form.descriptionRequired')}>
                <Input.TextArea rows={4} data-testid="case-description" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="client" label={t('fields.client')}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="counterpart" label={t('fields.counterpart')}>
                <Input data-testid="case-counterpart" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="counterpart_identity_number"
                label={t('fields.counterpart_identity_number')}
                extra={t('form.identityNumberHelp')}
                rules={[identityNumberRule(t('form.identityNumber'))]}
              >
                <Input data-testid="case-counterpart-identity-number" placeholder="556677-8899" maxLength={IDENTITY_NUMBER_MAX_CHARS} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="contact_person" label={t('fields.contact_person')}>
                <Input />
              </Form.Item>
            </Col>
            {staff && (
              <Col xs={24} md={12}>
                <Form.Item name="direct_assign_lawyer" label={t('fields.direct_assign_lawyer')}>
                  <Select allowClear showSearch filterOption={false} onSearch={searchLawyers} options={lawyers} />
                </Form.Item>
              </Col>
            )}
            <Col xs={24} md={6}>
              <Form.Item name="start_date" label={t('fields.start_date')}>
                <DatePicker format="YYYY-MM-DD" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="deadline" label={t('fields.deadline')}>
                <DatePicker format="YYYY-MM-DD" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            {!customerSide && (
              <Col xs={24} md={12}>
                <Form.Item name="disqualification_control" valuePropName="checked" label=" ">
                  <Checkbox data-testid="case-disqualification">{t('fields.disqualification_control')}</Checkbox>
                </Form.Item>
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item name="address_1" label={t('fields.address_1')}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              {/* Swedish post codes are five digits (spec §5); abroad up to ten letters, digits, spaces or dashes, as the server checks. */}
              <Form.Item
                name="post_code"
                label={t('fields.post_code')}
                dependencies={['country']}
                normalize={(v: string, _prev: unknown, all: Record<string, unknown>) => (!all.country || all.country === SWEDEN ? normalisePostCode(v) : v)}
                rules={[
                  ({ getFieldValue }) => {
                    const swedish = !getFieldValue('country') || getFieldValue('country') === SWEDEN;
                    return swedish ? postCodeRule(t('form.postCode')) : postCodeAbroadRule(t('form.postCodeAbroad'));
                  },
                ]}
              >
                <Input maxLength={10} data-testid="case-post-code" />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="city" label={t('fields.city')}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={4}>
              <Form.Item name="country" label={t('fields.country')}>
                <Select showSearch={FOLDED_SEARCH} allowClear options={countries} data-testid="case-country" />
              </Form.Item>
            </Col>
            {!customerSide && (
              <Col xs={24}>
                <Form.Item name="short_internal_description" label={t('fields.short_internal_description')}>
                  <Input />
                </Form.Item>
              </Col>
            )}
            <Col xs={24}>
              <Form.Item name="note" label={t('fields.note')}>
                <Input.TextArea rows={2} />
              </Form.Item>
            </Col>
            {/* Every creating role may attach documents (a lawyer's new case is their own draft). */}
            {!case_uid && (
              <Col xs={24}>
                <Form.Item label={td('title')}>
                  <DocumentPicker files={documents} onChange={setDocuments} />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Button type="primary" htmlType="submit" loading={saving} disabled={needsService} data-testid="case-submit">
            {case_uid ? t('form.save') : t('form.create')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
