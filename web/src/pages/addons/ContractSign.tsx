/**
 * Digital contract signing (spec §2 contract sign, §4 Verified needs a
 * token): the token's registration/login screen while the company holds
 * none; the envelope list with state and recipients' progress (polled while
 * any is out for signing); create and update with PDFs and recipients.
 */
import './texts';
import { useEffect, useState } from 'react';
import { useList, useLoad } from '../../api/useList';
import { useFormRecord } from '../../components/FormPage';
import { Alert, Button, Card, Checkbox, Form, Input, Select, Space, Switch, Tabs, Tag, Typography } from 'antd';
import Table from '../../components/ResponsiveTable';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import Link from '../../components/Link';
import Loading from '../../components/Loading';
import { pathFor, useAreaRole } from '../../routes/pathFor';
import { splitServerErrors } from '../../api/formErrors';
import { emailRule } from '../../validation/formRules';
import { translateServerMessage } from '../../i18n';
import { ApiError } from '../../api/errors';
import { newIdempotencyKey } from '../../api/client';
import { putToPresignedUrl } from '../../api/users';
import {
  createEnvelope,
  envelopeAction,
  getEnvelope,
  listEnvelopes,
  pdfUploadUrl,
  signedDownload,
  tokenCheck,
  tokenLogin,
  tokenRegister,
  updateEnvelope,
  type Envelope,
  type EnvelopeDocument,
  type EnvelopeForm,
  type Recipient,
  type TokenState,
} from '../../api/addons';
import PageTitle from '../../components/PageTitle';

const LOCALES = ['nb', 'sv', 'en', 'da', 'fi'] as const;
const ROLES = ['signer', 'approver', 'viewer'] as const;
const METHODS = ['bankid_no', 'bankid_se', 'touch_sign', 'email'] as const;
/** While an envelope is out for signing, the list asks again this often. */
export const POLL_MS = 3000;

function messageOf(err: unknown): string | null {
  return err instanceof ApiError && err.body?.message ? translateServerMessage(err.body.message) : null;
}

/** Registration or login at the signing provider; the token is kept per company. */
function TokenScreen({ onDone }: { onDone: (t: TokenState) => void }) {
  const { t } = useTranslation('addons');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (call: () => Promise<TokenState>) => {
    setBusy(true);
    setError(null);
    try {
      onDone(await call());
    } catch (err) {
      setError(messageOf(err) ?? t('token.failed'));
    } finally {
      setBusy(false);
    }
  };
  const register = (
    <Form layout="vertical" onFinish={(v: { company: string; email: string; password: string }) => submit(() => tokenRegister(v))} data-testid="token-register">
      <Form.Item
        name="company"
        label={t('token.company')}
        rules={[
          { required: true, message: t('required') },
          { pattern: /^[A-Za-z0-9_-]{1,100}$/, message: t('token.companyInvalid') },
        ]}
      >
        <Input data-testid="token-company" />
      </Form.Item>
      <Form.Item name="email" label={t('token.email')} rules={[{ required: true, message: t('token.emailInvalid') }, emailRule(t('token.emailInvalid'))]}>
        <Input data-testid="token-email" autoComplete="off" />
      </Form.Item>
      <Form.Item name="password" label={t('token.password')} rules={[{ required: true, min: 6, message: t('token.passwordShort') }]}>
        <Input.Password data-testid="token-password" autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="token-register-submit">
        {t('token.register')}
      </Button>
    </Form>
  );
  const login = (
    <Form layout="vertical" onFinish={(v: { email: string; password: string }) => submit(() => tokenLogin(v))} data-testid="token-login">
      <Form.Item name="email" label={t('token.email')} rules={[{ required: true, message: t('required') }]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="password" label={t('token.password')} rules={[{ required: true, message: t('required') }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="token-login-submit">
        {t('token.login')}
      </Button>
    </Form>
  );
  return (
    <Card data-testid="verified-token-screen" style={{ maxWidth: 560 }}>
      <Typography.Paragraph>{t('token.intro')}</Typography.Paragraph>
      {error && <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="token-error" />}
      <Tabs
        items={[
          { key: 'register', label: t('token.registerTab'), children: register },
          { key: 'login', label: t('token.loginTab'), children: login },
        ]}
      />
    </Card>
  );
}

function StateTag({ state }: { state: Envelope['state'] }) {
  const { t } = useTranslation('addons');
  const color = { draft: 'default', sent: 'processing', completed: 'success', cancelled: 'warning', expired: 'error' }[state];
  return (
    <Tag color={color} data-testid="envelope-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}

function progress(e: Envelope): string {
  const acting = e.recipients.filter((r) => r.role !== 'viewer');
  return `${acting.filter((r) => r.signed).length}/${acting.length}`;
}

function EnvelopeList() {
  const { t } = useTranslation('addons');
  const role = useAreaRole();
  const [busy, setBusy] = useState<string | null>(null);
  const { rows, reload: load } = useList<Envelope>(listEnvelopes);
  const outForSigning = rows?.some((e) => e.state === 'sent') ?? false;
  useEffect(() => {
    if (!outForSigning) return;
    const timer = window.setInterval(() => void load(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [outForSigning, load]);

  const act = async (e: Envelope, action: 'send' | 'remind' | 'cancel') => {
    setBusy(`${e.uid}-${action}`);
    try {
      await envelopeAction(e.uid, action);
      await load();
    } catch {
      // The client shows the server's message.
    } finally {
      setBusy(null);
    }
  };
  const download = async (e: Envelope) => {
    const link = await signedDownload(e.uid);
    window.open(link.url, '_blank', 'noopener');
  };

  if (!rows) return <Loading />;
  return (
    <Card
      title={t('list.title')}
      extra={
        <Link to={pathFor(role, 'contractSignCreate')}>
          <Button type="primary" data-testid="envelope-create">
            {t('list.create')}
          </Button>
        </Link>
      }
    >
      <Table<Envelope>
        rowKey="uid"
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('list.empty') }}
        data-testid="envelope-list"
        columns={[
          { title: t('list.name'), dataIndex: 'name' },
          { title: t('list.state'), dataIndex: 'state', render: (s: Envelope['state']) => <StateTag state={s} /> },
          { title: t('list.progress'), key: 'progress', render: (_, e) => <span data-testid="envelope-progress">{progress(e)}</span> },
          { title: t('list.created'), dataIndex: 'created_at', render: (d: string) => d.slice(0, 10) },
          {
            title: t('list.actions'),
            key: 'actions',
            render: (_, e) => (
              <Space wrap>
                {e.state === 'draft' && (
                  <>
                    <Link to={pathFor(role, 'contractSignUpdate', { uid_envelope: e.uid })}>{t('list.edit')}</Link>
                    <Button size="small" type="primary" loading={busy === `${e.uid}-send`} onClick={() => act(e, 'send')} data-testid="envelope-send">
                      {t('list.send')}
                    </Button>
                  </>
                )}
                {e.state === 'sent' && (
                  <Button size="small" loading={busy === `${e.uid}-remind`} onClick={() => act(e, 'remind')}>
                    {t('list.remind')}
                  </Button>
                )}
                {(e.state === 'draft' || e.state === 'sent') && (
                  <Button size="small" danger loading={busy === `${e.uid}-cancel`} onClick={() => act(e, 'cancel')}>
                    {t('list.cancel')}
                  </Button>
                )}
                {e.state === 'completed' && (
                  <Button size="small" onClick={() => void download(e)} data-testid="envelope-download">
                    {t('list.download')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

const emptyRecipient: Recipient = {
  name: '',
  email: '',
  phone: '',
  locale: 'sv',
  role: 'signer',
  notify_sms: false,
  require_auth: false,
  sign_method: 'bankid_se',
};

interface FormValues {
  name: string;
  sequential: boolean;
  recipients: Recipient[];
}

function EnvelopeEditor({ uid }: { uid?: string }) {
  const { t } = useTranslation('addons');
  const role = useAreaRole();
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const [documents, setDocuments] = useState<EnvelopeDocument[]>([]);
  const [alert, setAlert] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [request] = useState(newIdempotencyKey);

  // An envelope being edited: its fields into the form, its documents beside it; a new one waits for nothing.
  const { record } = useFormRecord(form, () => getEnvelope(uid!), uid ?? null, (e) => {
    setDocuments(e.documents);
    return { name: e.name, sequential: e.sequential, recipients: e.recipients };
  });
  const loaded = !uid || record != null;

  const upload = async (files: FileList | null) => {
    if (!files) return;
    setUploading(true);
    setAlert([]);
    try {
      for (const file of Array.from(files)) {
        const target = await pdfUploadUrl(file.name);
        await putToPresignedUrl(target.url, file, target.content_type);
        setDocuments((d) => [...d, { key: target.key, name: target.name }]);
      }
    } catch (err) {
      setAlert([messageOf(err) ?? t('editor.uploadFailed')]);
    } finally {
      setUploading(false);
    }
  };

  const save = async (v: FormValues) => {
    setSaving(true);
    setAlert([]);
    const body: EnvelopeForm = { name: v.name, sequential: !!v.sequential, recipients: v.recipients ?? [], documents };
    try {
      await (uid ? updateEnvelope(uid, body) : createEnvelope(body, request));
      navigate(pathFor(role, 'contractSign'));
    } catch (err) {
      const names = ['name', ...(v.recipients ?? []).flatMap((_, i) => ['name', 'email', 'phone', 'locale', 'role', 'sign_method'].map((f) => `recipients.${i}.${f}`))];
      const split = splitServerErrors(err, names);
      form.setFields(split.fields.map((f) => ({ name: f.name.includes('.') ? f.name.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : f.name, errors: f.errors })) as never);
      setAlert(split.other.length ? split.other : split.fields.length ? [] : [messageOf(err) ?? t('editor.saveFailed')]);
    } finally {
      setSaving(false);
    }
  };

  if (!loaded) return <Loading />;
  return (
    <Card title={uid ? t('editor.updateTitle') : t('editor.createTitle')} data-testid="envelope-editor">
      {alert.length > 0 && <Alert type="error" showIcon title={alert.join(' ')} style={{ marginBottom: 16 }} data-testid="envelope-error" />}
      <Form<FormValues> form={form} layout="vertical" initialValues={{ sequential: false, recipients: [{ ...emptyRecipient }] }} onFinish={save}>
        <Form.Item name="name" label={t('editor.name')} rules={[{ required: true, message: t('required') }]}>
          <Input data-testid="envelope-name" maxLength={200} />
        </Form.Item>
        <Form.Item label={t('editor.documents')} required>
          <Space orientation="vertical" style={{ width: '100%' }}>
            {documents.map((d) => (
              <Space key={d.key}>
                <Typography.Text data-testid="envelope-document">{d.name}</Typography.Text>
                <Button size="small" type="link" onClick={() => setDocuments((all) => all.filter((x) => x.key !== d.key))}>
                  {t('editor.remove')}
                </Button>
              </Space>
            ))}
            <input
              type="file"
              accept="application/pdf,.pdf"
              multiple
              aria-label={t('editor.addPdf')}
              data-testid="envelope-file"
              disabled={uploading}
              onChange={(e) => {
                void upload(e.target.files);
                e.target.value = '';
              }}
            />
            <Typography.Text type="secondary">{t('editor.pdfOnly')}</Typography.Text>
          </Space>
        </Form.Item>
        <Form.Item name="sequential" label={t('editor.sequential')} valuePropName="checked">
          <Switch data-testid="envelope-sequential" />
        </Form.Item>
        <Form.List name="recipients">
          {(fields, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {fields.map((field, i) => (
                <Card key={field.key} size="small" title={t('editor.recipient', { n: i + 1 })} extra={<Button size="small" type="link" onClick={() => remove(field.name)}>{t('editor.remove')}</Button>} data-testid="envelope-recipient">
                  <Space wrap align="start">
                    <Form.Item name={[field.name, 'name']} label={t('editor.recipientName')} rules={[{ required: true, message: t('required') }]}>
                      <Input data-testid={`recipient-name-${i}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'email']} label={t('editor.email')} rules={[{ required: true, message: t('token.emailInvalid') }, emailRule(t('token.emailInvalid'))]}>
                      <Input data-testid={`recipient-email-${i}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'phone']} label={t('editor.phone')}>
                      <Input data-testid={`recipient-phone-${i}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'locale']} label={t('editor.locale')}>
                      <Select style={{ width: 140 }} options={LOCALES.map((l) => ({ value: l, label: t(`locale.${l}`) }))} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'role']} label={t('editor.role')}>
                      <Select style={{ width: 140 }} options={ROLES.map((r) => ({ value: r, label: t(`role.${r}`) }))} data-testid={`recipient-role-${i}`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'sign_method']} label={t('editor.signMethod')}>
                      <Select style={{ width: 160 }} options={METHODS.map((m) => ({ value: m, label: t(`method.${m}`) }))} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'notify_sms']} valuePropName="checked" label=" ">
                      <Checkbox>{t('editor.notifySms')}</Checkbox>
                    </Form.Item>
                    <Form.Item name={[field.name, 'require_auth']} valuePropName="checked" label=" ">
                      <Checkbox>{t('editor.requireAuth')}</Checkbox>
                    </Form.Item>
                  </Space>
                </Card>
              ))}
              <Button onClick={() => add({ ...emptyRecipient })} data-testid="recipient-add">
                {t('editor.addRecipient')}
              </Button>
            </Space>
          )}
        </Form.List>
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" htmlType="submit" loading={saving} disabled={uploading} data-testid="envelope-save">
            {t('editor.save')}
          </Button>
          <Link to={pathFor(role, 'contractSign')}>{t('editor.back')}</Link>
        </Space>
      </Form>
    </Card>
  );
}

/** The contract-sign routes: list, create/, update/{uid_envelope}/. */
export default function ContractSign({ titleKey, create = false }: { titleKey: string; create?: boolean }) {
  const { uid_envelope } = useParams();
  // A failed check asks for the token again.
  const { data: token, set: setToken } = useLoad<TokenState>(tokenCheck, '', { registered: false, valid: false });
  let body;
  if (!token) body = <Loading />;
  else if (!token.registered || !token.valid) body = <TokenScreen onDone={setToken} />;
  else if (uid_envelope) body = <EnvelopeEditor uid={uid_envelope} />;
  else if (create) body = <EnvelopeEditor />;
  else body = <EnvelopeList />;
  return (
    <div className="page" data-testid="contract-sign-page">
      <PageTitle titleKey={titleKey} />
      {body}
    </div>
  );
}
