import { Button, Card, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import PageTitle from '../../components/PageTitle';
import { useFeedback } from '../../layout/feedback';
import { applyFieldErrors } from './fieldErrors';

/**
 * A catalogue create or edit page (departments, packages, service plans): the route's title, a card with the
 * form and its save button. Saved: `done` (a `catalogue` key) is said and the page goes to `back`; refused:
 * the server's field errors on the fields (the client has notified). `testId`: the form's `<testId>-form` and
 * its button's `<testId>-submit`.
 */
export default function CatalogueFormPage<V>({
  titleKey,
  form,
  save,
  done,
  back,
  testId,
  initialValues,
  children,
}: {
  titleKey: string;
  form: FormInstance;
  save: (values: V) => Promise<unknown>;
  done: string;
  back: string;
  testId?: string;
  initialValues?: object;
  children: ReactNode;
}) {
  const { t } = useTranslation('catalogue');
  const { message } = useFeedback();
  const navigate = useNavigate();
  return (
    <div className="page">
      <PageTitle titleKey={titleKey} />
      <Card>
        <Form
          form={form}
          layout="vertical"
          data-testid={testId && `${testId}-form`}
          initialValues={initialValues}
          onFinish={async (v: V) => {
            try {
              await save(v);
              void message.success(t(done));
              navigate(back);
            } catch (e) {
              applyFieldErrors(form, e);
            }
          }}
        >
          {children}
          <Button type="primary" htmlType="submit" data-testid={testId && `${testId}-submit`}>
            {t('save')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
