import Form, { type FormProps } from 'antd/es/form';
import type { ReactNode } from 'react';

/**
 * The app's antd form: labels above the fields and no required marks (each field's rule says what it needs).
 * Its own module: the public pages take it without the role areas' form-page shell.
 */
export default function VerticalForm<V>(props: FormProps<V> & { children?: ReactNode }) {
  return <Form<V> layout="vertical" requiredMark={false} {...props} />;
}
