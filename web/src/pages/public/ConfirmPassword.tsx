import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Result from 'antd/es/result';
import { useState } from 'react';
import { useLoad } from '../../api/useList';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Link from '../../components/Link';
import { confirmPasswordRecovery } from '../../api/auth';
import { activateAccount, checkActivationLink } from '../../api/customers';
import { applyServerErrors, isInlineError, splitServerErrors } from '../../api/formErrors';
import NewPasswordFields from '../../components/NewPasswordFields';
import MessageAlert from '../../components/MessageAlert';
import VerticalForm from '../../components/VerticalForm';
import { PublicCard, PublicLead, PublicTitle } from '../../components/PublicCard';
import { translateServerMessage } from '../../i18n';
import InvalidLink from '../InvalidLink';
import PublicLayout from './PublicLayout';

interface ConfirmValues {
  password: string;
  confirm_password: string;
}

const FIELDS = ['password', 'confirm_password'] as const;

/** The server's key for a used, expired or unknown link. */
const LINK_INVALID = 'link_invalid';

function isLinkInvalid(err: unknown): boolean {
  if (!isInlineError(err, [400])) return false;
  if (err.body?.message === LINK_INVALID) return true;
  return Object.values(err.fieldErrors).some((keys) => keys.includes(LINK_INVALID));
}

/**
 * The confirm-password screen (spec §2) of /recovery/account?token=… (forgot
 * password) and /approve/customer?token=… or /confirm/account?token=…
 * (account activation from the approval mail): a password and its
 * confirmation. A missing, used or expired token shows the invalid URL
 * screen (spec §8); activation links are checked as the page opens.
 */
export default function ConfirmPassword({ variant }: { variant: 'recovery' | 'confirm' | 'approve' }) {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [form] = Form.useForm<ConfirmValues>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string[] | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [refused, setInvalid] = useState(false);
  const activation = variant !== 'recovery';
  // An activation link is checked when opened: one the server calls invalid shows the invalid screen at once.
  const checked = useLoad(() => checkActivationLink(token), activation && token ? token : null).data;
  const invalid = refused || checked?.valid === false;
  const titleKey = variant === 'recovery' ? 'recoveryAccount' : variant === 'approve' ? 'approveCustomer' : 'confirmAccount';
  const titleVariant = variant === 'recovery' ? 'recovery' : 'confirm';

  const onFinish = async ({ password, confirm_password }: ConfirmValues) => {
    setSubmitting(true);
    setError(null);
    try {
      const input = { token, password, confirm_password };
      const res = activation ? await activateAccount(input) : await confirmPasswordRecovery(input);
      setDone(translateServerMessage(res?.message || (activation ? 'account_activated' : 'password_reset')));
    } catch (err) {
      if (isLinkInvalid(err)) setInvalid(true);
      else if (isInlineError(err)) {
        // Errors about the token field (other than link_invalid) also mean the link is unusable.
        const { fields } = splitServerErrors(err, ['token']);
        if (fields.length) setInvalid(true);
        else setError(applyServerErrors(form, err, FIELDS));
      }
    } finally {
      setSubmitting(false);
    }
  };

  let body;
  if (!token || invalid) {
    body = <InvalidLink />;
  } else if (done) {
    body = (
      <Result
        status="success"
        title={t('confirm.doneTitle')}
        subTitle={<span data-testid="confirm-message">{done}</span>}
        extra={
          <Link to="/login" replace>
            <Button type="primary" data-testid="confirm-done">
              {t('confirm.toLogin')}
            </Button>
          </Link>
        }
      />
    );
  } else {
    body = (
      <>
        <PublicTitle level={2} data-testid="page-title">
          {t(`confirm.title.${titleVariant}`)}
        </PublicTitle>
        <PublicLead>{t('confirm.intro')}</PublicLead>
        <MessageAlert messages={error} testId="confirm-error" />
        <VerticalForm<ConfirmValues>
          form={form}
          name="confirm-password"
          data-testid="confirm-form"
          onFinish={onFinish}
          disabled={submitting}
        >
          <NewPasswordFields name="password" confirmName="confirm_password" testId="confirm-password" confirmTestId="confirm-password2" />
          <Button type="primary" htmlType="submit" block size="large" loading={submitting} data-testid="confirm-submit">
            {t('confirm.submit')}
          </Button>
        </VerticalForm>
        <div className="form-links">
          <Link to="/login">{t('public:backToLogin')}</Link>
        </div>
      </>
    );
  }

  return (
    <PublicLayout titleKey={titleKey}>
      <PublicCard data-testid="confirm-page" data-variant={variant}>
        {body}
      </PublicCard>
    </PublicLayout>
  );
}
