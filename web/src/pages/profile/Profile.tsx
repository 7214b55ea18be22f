import { Avatar, Button, Card, Col, Form, Input, Row, Select, Space, Switch, Typography, Upload } from 'antd';
import type { UploadProps } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessages } from '../../api/formErrors';
import { useLoad } from '../../api/useList';
import VerticalForm from '../../components/VerticalForm';
import { FormPage, useFormPage } from '../../components/FormPage';
import { confirmProfileImage, getMailSettings, profileImageUploadUrl, putToPresignedUrl, saveMailSettings, updateProfile, type MailSettings } from '../../api/users';
import MessageAlert from '../../components/MessageAlert';
import BankIdLinkCard from '../../components/bankid/BankIdLinkCard';
import { avatarSrc, initialOf } from '../../components/avatar';
import { setUser, useSession } from '../../store/session';

interface Values {
  first_name: string;
  last_name: string;
  phone?: string;
}

const FIELDS = ['first_name', 'last_name', 'phone'] as const;
export const IMAGE_TYPES = ['image/jpeg', 'image/png'];
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

function splitName(full: string | undefined): [string, string] {
  const parts = (full ?? '').trim().split(/\s+/);
  return [parts[0] ?? '', parts.slice(1).join(' ')];
}

/**
 * Upload a profile image: ask for a presigned URL, PUT the file straight to
 * S3, then confirm (the server checks size and type) and store the session user.
 */
export async function uploadProfileImage(file: File): Promise<void> {
  const target = await profileImageUploadUrl(file.type);
  await putToPresignedUrl(target.url, file, target.content_type);
  setUser(await confirmProfileImage(target.key));
}

/** "Mail when something happens": on by default, with the mails' language; saved on its own. */
function MailCard() {
  const { t, i18n } = useTranslation('profile');
  // Unread (or unreadable): on, in the language shown.
  const { data: settings, set: setSettings } = useLoad<MailSettings>(getMailSettings, i18n.language, {
    on: true,
    language: i18n.language === 'en' ? 'en' : 'sv',
  });
  const [saving, setSaving] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async () => {
    if (!settings) return;
    setSaving(true);
    setNote(null);
    try {
      setSettings(await saveMailSettings(settings));
      setNote({ ok: true, text: t('mail.saved') });
    } catch {
      setNote({ ok: false, text: t('mail.failed') });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card className="form-card" title={t('mail.title')} data-testid="profile-mail" style={{ marginTop: 16 }}>
      <MessageAlert messages={note?.ok ? [note.text] : null} type="success" testId="profile-mail-success" />
      <MessageAlert messages={note && !note.ok ? [note.text] : null} testId="profile-mail-error" />
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <label style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
          <Switch
            checked={settings?.on ?? true}
            disabled={!settings || saving}
            onChange={(on) => settings && setSettings({ ...settings, on })}
            data-testid="profile-mail-on"
            aria-describedby="profile-mail-hint"
          />
          <span style={{ overflowWrap: 'anywhere' }}>{t('mail.on')}</span>
        </label>
        <Typography.Text type="secondary" id="profile-mail-hint">
          {t('mail.hint')}
        </Typography.Text>
        <Form.Item label={t('mail.language')} style={{ marginBottom: 0 }}>
          <Select
            value={settings?.language ?? 'sv'}
            disabled={!settings || saving}
            onChange={(language: 'sv' | 'en') => settings && setSettings({ ...settings, language })}
            options={(['sv', 'en'] as const).map((l) => ({ value: l, label: t(`mail.languages.${l}`) }))}
            style={{ maxWidth: 240 }}
            data-testid="profile-mail-language"
            aria-label={t('mail.language')}
          />
        </Form.Item>
        <Button type="primary" onClick={save} loading={saving} disabled={!settings} data-testid="profile-mail-save">
          {t('mail.save')}
        </Button>
      </Space>
    </Card>
  );
}

/** <prefix>profile: names, phone and the profile image (not for admin, spec §2). */
export default function Profile({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('profile');
  const user = useSession((s) => s.user);
  const [form] = Form.useForm<Values>();
  const [uploading, setUploading] = useState(false);
  const { submitting, errors, setErrors: setError, done, setDone, submit } = useFormPage(form, FIELDS, { inline: [400] });

  useEffect(() => {
    const [first, last] = user?.first_name != null ? [user.first_name, user.last_name ?? ''] : splitName(user?.full_name);
    form.setFieldsValue({ first_name: first, last_name: last, phone: user?.phone ?? '' });
    // Only when the user changes identity, not after each image upload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user?.uid, form]);

  const onFinish = (v: Values) =>
    submit(async () => {
      setUser(await updateProfile({ first_name: v.first_name, last_name: v.last_name, phone: v.phone?.trim() || null }));
      setDone(t('saved'));
    });

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    setError(null);
    setDone(null);
    if (!IMAGE_TYPES.includes(file.type)) {
      setError([t('image.wrongType')]);
      return Upload.LIST_IGNORE;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      setError([t('image.tooLarge')]);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    setUploading(true);
    try {
      await uploadProfileImage(file as File);
      setDone(t('image.saved'));
      onSuccess?.({});
    } catch (err) {
      const msgs = serverMessages(err);
      setError(msgs.length ? msgs : [t('image.failed')]);
      onError?.(err as Error);
    } finally {
      setUploading(false);
    }
  };

  const src = avatarSrc(user?.image);
  return (
    <FormPage
      titleKey={titleKey}
      testId="profile"
      errors={errors}
      done={done}
      after={
        <>
          <MailCard />
          <BankIdLinkCard />
        </>
      }
    >
        <Space align="center" size="large" style={{ marginBottom: 24 }} wrap>
          <Avatar size={96} src={src} data-testid="profile-avatar" data-has-image={src ? 'true' : 'false'}>
            {src ? null : initialOf(user)}
          </Avatar>
          <Upload accept=".jpg,.jpeg,.png,image/jpeg,image/png" maxCount={1} showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest}>
            <Button icon={<UploadOutlined />} loading={uploading} data-testid="profile-upload">
              {t('image.upload')}
            </Button>
          </Upload>
          <Typography.Text type="secondary">{t('image.hint')}</Typography.Text>
        </Space>
        <VerticalForm<Values> form={form} name="profile" data-testid="profile-form" onFinish={onFinish} disabled={submitting}>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item label={t('firstName')} name="first_name" rules={[{ required: true, whitespace: true, message: t('firstNameRequired') }]}>
                <Input data-testid="profile-first-name" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={t('lastName')} name="last_name" rules={[{ required: true, whitespace: true, message: t('lastNameRequired') }]}>
                <Input data-testid="profile-last-name" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label={t('email')}>
            <Input value={user?.email ?? ''} disabled data-testid="profile-email" />
          </Form.Item>
          <Form.Item label={t('phone')} name="phone">
            <Input data-testid="profile-phone" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="profile-submit">
            {t('save')}
          </Button>
        </VerticalForm>
    </FormPage>
  );
}
