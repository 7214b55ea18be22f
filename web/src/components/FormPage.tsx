import Card from 'antd/es/card';
import type { FormInstance } from 'antd/es/form';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { applyServerErrors, isInlineError } from '../api/formErrors';
import { useLoad } from '../api/useList';
import Loading from './Loading';
import MessageAlert from './MessageAlert';
import PageTitle from './PageTitle';

export interface FormPageState {
  submitting: boolean;
  /** What the server said that no field of the form shows (an Alert above the form), or null. */
  errors: string[] | null;
  setErrors: (errors: string[] | null) => void;
  /** What the last submit achieved, when the page stays (an edit saved): shown above the form until the next. */
  done: string | null;
  setDone: (done: string | null) => void;
  /**
   * Runs `work` (the form's request and what follows it) with the form marked submitting; an inline error (a
   * 400 or 429 by default) puts the server's field errors on the form's fields and the rest in `errors`. Other
   * errors the API client has already notified.
   */
  submit: (work: () => Promise<unknown>) => Promise<void>;
}

/**
 * A form page's submitting state and server errors. `fields` are the form's field names as the server names
 * them (`aliases` maps other server names onto them); `inline` the statuses shown on the form.
 */
export function useFormPage(
  form: Pick<FormInstance, 'setFields'> & Partial<Pick<FormInstance, 'scrollToField'>>,
  fields: readonly string[],
  { aliases, inline }: { aliases?: Readonly<Record<string, string>>; inline?: readonly number[] } = {},
): FormPageState {
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = useCallback(
    async (work: () => Promise<unknown>) => {
      setSubmitting(true);
      setErrors(null);
      setDone(null);
      try {
        await work();
      } catch (err) {
        if (isInlineError(err, inline)) setErrors(applyServerErrors(form, err, fields, aliases));
      } finally {
        setSubmitting(false);
      }
    },
    [form, fields, aliases, inline],
  );
  return { submitting, errors, setErrors, done, setDone, submit };
}

/**
 * What an edit page edits, read when it opens (again when `key` changes) and put into its form with `toValues`;
 * `key` null: a create page, nothing to read. `record` is null until read (or when the read failed: the client
 * has notified), `loading` true while it is read.
 */
export function useFormRecord<T>(
  form: Pick<FormInstance, 'setFieldsValue'>,
  fetch: () => Promise<T>,
  key: string | null,
  toValues: (record: T) => object,
): { record: T | null; loading: boolean } {
  const { data, loading } = useLoad<T>(fetch, key);
  // The latest mapping: a page passes a new arrow each render; the form is filled once per answer.
  const latest = useRef(toValues);
  latest.current = toValues;
  useEffect(() => {
    if (data != null) form.setFieldsValue(latest.current(data));
  }, [data, form]);
  return { record: data, loading: key != null && loading };
}

/**
 * A form page's shell: the route's title, a card with the server's messages above the form, a spinner while
 * what the form edits loads. `testId` names the page: `<testId>-page`, its error `<testId>-error` and its
 * success `<testId>-success` (the e2e tests use them).
 */
export function FormPage({
  titleKey,
  testId,
  errors,
  errorTestId = `${testId}-error`,
  done,
  loading = false,
  children,
  after,
}: {
  /** The route's title (`routes` namespace). */
  titleKey: string;
  testId: string;
  errors: string[] | null;
  /** Where the error's test id is not the page's. */
  errorTestId?: string;
  done?: string | null;
  loading?: boolean;
  children: ReactNode;
  /** What follows the form's card on the page (another card). */
  after?: ReactNode;
}) {
  if (loading) return <Loading />;
  return (
    <div className="page" data-testid={`${testId}-page`}>
      <PageTitle titleKey={titleKey} />
      <Card className="form-card">
        <MessageAlert messages={done ? [done] : null} type="success" testId={`${testId}-success`} />
        <MessageAlert messages={errors} testId={errorTestId} />
        {children}
      </Card>
      {after}
    </div>
  );
}
