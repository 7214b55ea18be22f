import { Button, Checkbox, Col, Form, Input, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import Link from '../../components/Link';
import { createContact, fetchContact, updateContact } from '../../api/users';
import type { Permission } from '../../types/users';
import Loading from '../../components/Loading';
import MessageAlert from '../../components/MessageAlert';
import VerticalForm from '../../components/VerticalForm';
import { FormPage, useFormPage, useFormRecord } from '../../components/FormPage';
import CustomerSelect from '../../components/CustomerSelect';
import { hasRoute, pathFor, useAreaRole } from '../../routes/pathFor';
import { PERMISSION_OPTIONS } from './permissionLabels';
import { IDENTITY_NUMBER_MAX_CHARS } from '../../validation/bounds';
import { contactPhoneRule, emailRule, identityNumberRule } from '../../validation/formRules';

interface Values {
  customer?: string;
  first_name: string;
  last_name: string;
  email: string;
  phone?: string;
  identity_number?: string;
  permissions: Permission[];
}

/** A 429 is the client's notification here; only the server's refusals of the values show on the form. */
const INLINE = [400] as const;

const FIELDS = ['customer', 'first_name', 'last_name', 'email', 'phone', 'identity_number', 'permissions'] as const;

/**
 * Create (`mode="create"`) or edit a customer contact: names, e-mail (create
 * only), phone and the permission checkboxes. Admin and sales person pick the
 * customer by name (prefilled from `?customer=`).
 */
export function ContactForm({ titleKey, mode }: { titleKey: string; mode: 'create' | 'edit' }) {
  const { t } = useTranslation('users');
  const role = useAreaRole();
  /** Admin and sales person name the customer; customers and contacts add to their own company and have the list. */
  const staff = role === 'admin' || role === 'sales';
  const list = hasRoute(role, 'contactList') ? pathFor(role, 'contactList') : null;
  const navigate = useNavigate();
  const { contact_id: contactId = '' } = useParams();
  const [search] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const { submitting, errors, done, setDone, submit } = useFormPage(form, FIELDS, { inline: INLINE });

  const { record: loaded, loading } = useFormRecord(form, () => fetchContact(contactId), mode === 'edit' && contactId ? contactId : null, (c) => ({
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    phone: c.phone ?? '',
    identity_number: c.identity_number ?? '',
    permissions: c.permissions,
  }));

  const onFinish = (v: Values) => {
    const base = { first_name: v.first_name, last_name: v.last_name, phone: v.phone?.trim() || null, identity_number: v.identity_number?.trim() || null, permissions: v.permissions ?? [] };
    return submit(async () => {
      if (mode === 'create') {
        const created = await createContact({ ...base, email: v.email, customer: staff ? v.customer : undefined });
        const to = list ?? (v.customer ? pathFor(role, 'customerUsers', { customer_uid: v.customer }) : pathFor(role, 'contactEdit', { contact_id: created.uid }));
        navigate(to, { state: { created: created.email } });
      } else {
        await updateContact(contactId, base);
        setDone(t('form.saved'));
      }
    });
  };

  if (loading) return <Loading />;
  if (mode === 'edit' && !loaded) {
    return (
      <div className="page" data-testid="contact-form-page">
        <Typography.Title level={2}>{t(titleKey, { ns: 'routes' })}</Typography.Title>
        <MessageAlert messages={[t('form.notFound')]} testId="contact-not-found" />
      </div>
    );
  }

  return (
    <FormPage titleKey={titleKey} testId="contact-form" errors={errors} done={done}>
      <VerticalForm<Values>
        form={form}
        name="contact"
        data-testid="contact-form"
        onFinish={onFinish}
        onValuesChange={() => setDone(null)}
        disabled={submitting}
        initialValues={{ customer: search.get('customer') || undefined, permissions: [] }}
      >
        {staff && mode === 'create' && (
          <Form.Item label={t('fields.customer')} name="customer" rules={[{ required: true, message: t('form.customerRequired') }]}>
            <CustomerSelect testId="contact-customer" />
          </Form.Item>
        )}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label={t('fields.firstName')} name="first_name" rules={[{ required: true, whitespace: true, message: t('form.firstNameRequired') }]}>
              <Input data-testid="contact-first-name" autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('fields.lastName')} name="last_name" rules={[{ required: true, whitespace: true, message: t('form.lastNameRequired') }]}>
              <Input data-testid="contact-last-name" autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          label={t('fields.email')}
          name="email"
          rules={mode === 'create' ? [{ required: true, message: t('form.emailRequired') }, emailRule(t('form.emailInvalid'))] : []}
        >
          <Input data-testid="contact-email" disabled={mode === 'edit'} autoComplete="off" />
        </Form.Item>
        <Form.Item
          label={t('fields.phone')}
          name="phone"
          rules={[contactPhoneRule(t('form.phoneInvalid'))]}
        >
          <Input data-testid="contact-phone" autoComplete="off" />
        </Form.Item>
        <Form.Item
          label={t('fields.identityNumber')}
          name="identity_number"
          extra={t('form.identityNumberHelp')}
          rules={[identityNumberRule(t('form.identityNumberInvalid'))]}
        >
          <Input data-testid="contact-identity-number" autoComplete="off" placeholder="19811218-9876" maxLength={IDENTITY_NUMBER_MAX_CHARS} />
        </Form.Item>
        <Form.Item label={t('fields.permissions')} name="permissions" extra={t('form.permissionsHelp')}>
          <Checkbox.Group data-testid="contact-permissions">
            <Space orientation="vertical">
              {PERMISSION_OPTIONS.map((p) => (
                <Checkbox key={p} value={p} data-testid={`contact-permission-${p}`}>
                  {t(`permissions.${p}`)}
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="contact-submit">
            {mode === 'create' ? t('form.create') : t('form.save')}
          </Button>
          {list && (
            <Link to={list}>
              <Button data-testid="contact-cancel">{t('form.back')}</Button>
            </Link>
          )}
        </Space>
      </VerticalForm>
    </FormPage>
  );
}

export function ContactCreate({ titleKey }: { titleKey: string }) {
  return <ContactForm titleKey={titleKey} mode="create" />;
}

export function ContactEdit({ titleKey }: { titleKey: string }) {
  return <ContactForm titleKey={titleKey} mode="edit" />;
}

export default ContactCreate;
