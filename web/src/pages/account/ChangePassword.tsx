import { Button, Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../../api/auth';
import NewPasswordFields from '../../components/NewPasswordFields';
import VerticalForm from '../../components/VerticalForm';
import { FormPage, useFormPage } from '../../components/FormPage';
import { translateServerMessage } from '../../i18n';
import { setAuth } from '../../store/session';

interface ChangePasswordValues {
  old_password: string;
  new_password: string;
  confirm_password: string;
}

const FIELDS = ['old_password', 'new_password', 'confirm_password'] as const;

/**
 * <prefix>/change-password: current password, new password, confirmation.
 * The API answers with a new token pair: this session continues, the others end.
 */
export default function ChangePassword({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation(['settings', 'account'], { nsMode: 'fallback' });
  const [form] = Form.useForm<ChangePasswordValues>();
  const { submitting, errors, done, setDone, submit } = useFormPage(form, FIELDS);

  const onFinish = (values: ChangePasswordValues) =>
    submit(async () => {
      const auth = await changePassword(values);
      if (auth?.access_token) setAuth(auth);
      form.resetFields();
      setDone(translateServerMessage('password_changed'));
    });

  return (
    <FormPage titleKey={titleKey} testId="change-password" errors={errors} done={done}>
      <VerticalForm<ChangePasswordValues>
        form={form}
        name="change-password"
        data-testid="change-password-form"
        onFinish={onFinish}
        onValuesChange={() => setDone(null)}
        disabled={submitting}
      >
        <Form.Item
          label={t('password.current')}
          name="old_password"
          rules={[{ required: true, message: t('password.currentRequired') }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="change-password-old" />
        </Form.Item>
        <NewPasswordFields name="new_password" confirmName="confirm_password" testId="change-password-new" confirmTestId="change-password-confirm" />
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="change-password-submit">
          {t('changePassword.submit')}
        </Button>
      </VerticalForm>
    </FormPage>
  );
}
