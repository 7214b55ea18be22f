import Form from 'antd/es/form';
import Input from 'antd/es/input';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import { useTranslation } from 'react-i18next';
import { confirmPasswordRules, newPasswordRules } from '../validation/auth';

/**
 * A new password and its confirmation inside an antd Form (changing one's password, a reset or an activation
 * link): 8–128 characters, the confirmation equal to it (validation/auth.ts), with the hint under the first.
 * `name` and `confirmName` are the fields as the server names them; the test ids those of the page.
 */
export default function NewPasswordFields({
  name,
  confirmName,
  testId,
  confirmTestId,
}: {
  name: string;
  confirmName: string;
  testId: string;
  confirmTestId: string;
}) {
  const { t } = useTranslation('account');
  return (
    <>
      <Form.Item label={t('password.new')} name={name} rules={newPasswordRules(t)} extra={t('password.hint')}>
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid={testId} />
      </Form.Item>
      <Form.Item label={t('password.confirm')} name={confirmName} dependencies={[name]} rules={confirmPasswordRules(t, name)}>
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" data-testid={confirmTestId} />
      </Form.Item>
    </>
  );
}
