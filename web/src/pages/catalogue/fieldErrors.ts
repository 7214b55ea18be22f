import type { FormInstance } from 'antd';
import { applyServerErrors } from '../../api/formErrors';

/** Server field errors onto the form's own fields (the client already showed the notification). */
export function applyFieldErrors(form: FormInstance, err: unknown): void {
  applyServerErrors(form, err, Object.keys(form.getFieldsValue(true) as object));
}
