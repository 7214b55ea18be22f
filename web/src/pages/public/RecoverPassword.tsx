import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Result from 'antd/es/result';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Link from '../../components/Link';
import { requestPasswordRecovery } from '../../api/auth';
import { applyServerErrors, isInlineError } from '../../api/formErrors';
import { trimValue } from '../../validation/auth';
import { emailRule } from '../../validation/formRules';
import MessageAlert from '../../components/MessageAlert';
import VerticalForm from '../../components/VerticalForm';
import { PublicCard, PublicLead, PublicTitle } from '../../components/PublicCard';
import { translateServerMessage } from '../../i18n';
import PublicLayout from './PublicLayout';

interface RecoverValues {
  email: string;
}

const FIELDS = ['email'] as const;

/**
 * /recover-password (forgot password): mails a recovery link. The answer is
 * the same whether or not the address has an account.
 */
export default function RecoverPassword() {
  const { t } = useTranslation('account');
  const [form] = Form.useForm<RecoverValues>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const onFinish = async ({ email }: RecoverValues) => {
    setSubmitting(true);
    setError(null);
    try {
      const res = await requestPasswordRecovery(email.trim());
      setSent(translateServerMessage(res?.message || 'recovery_sent'));
    } catch (err) {
      if (isInlineError(err)) setError(applyServerErrors(form, err, FIELDS));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PublicLayout titleKey="recoverPassword">
      <PublicCard data-testid="recover-page">
        {sent ? (
          <Result
            status="success"
            title={t('recover.sentTitle')}
            subTitle={<span data-testid="recover-sent">{sent}</span>}
            extra={
              <Link to="/login" data-testid="recover-back">
                <Button type="primary">{t('public:backToLogin')}</Button>
              </Link>
            }
          />
        ) : (
          <>
            <PublicTitle level={2} data-testid="page-title">
              {t('recover.title')}
            </PublicTitle>
            <PublicLead>{t('recover.intro')}</PublicLead>
            <MessageAlert messages={error} testId="recover-error" />
            <VerticalForm<RecoverValues> form={form} name="recover" data-testid="recover-form" onFinish={onFinish} disabled={submitting}>
              <Form.Item
                label={t('public:login.email')}
                name="email"
                normalize={trimValue}
                rules={[
                  { required: true, message: t('public:login.emailRequired') },
                  emailRule(t('public:login.emailInvalid')),
                ]}
              >
                <Input prefix={<MailOutlined />} autoComplete="username" inputMode="email" data-testid="recover-email" />
              </Form.Item>
              <Button type="primary" htmlType="submit" block size="large" loading={submitting} data-testid="recover-submit">
                {t('recover.submit')}
              </Button>
            </VerticalForm>
            <div className="form-links">
              <Link to="/login" data-testid="recover-back">
                {t('public:backToLogin')}
              </Link>
            </div>
          </>
        )}
      </PublicCard>
    </PublicLayout>
  );
}
