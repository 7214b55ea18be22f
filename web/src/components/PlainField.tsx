/**
 * One field of a plain form, drawn and announced as antd's vertical Form.Item
 * draws it (styles.css `.plain-form-*`): its label, the control, the field's
 * errors below it (role alert, linked by aria-describedby) and an optional
 * hint line under them (Form.Item's `extra`). The public pages' forms (login,
 * two-factor, registration) use it instead of antd's Form: rc-field-form,
 * async-validator, Grid and Tooltip (for labels) are ~35 KiB gzip, which their
 * 200 KiB budget cannot hold (src/budget.test.ts).
 *
 * The control gets its own `id` and the attributes of `fieldAria` (what antd's
 * Form.Item gives the control it wraps).
 */
import type { ReactNode } from 'react';

/** A field's errors: none, one text, or several (a server may answer more than one per field). */
export type FieldError = string | readonly string[] | null | undefined;

const errorsOf = (error: FieldError): readonly string[] => (error == null ? [] : typeof error === 'string' ? [error] : error);

/** `aria-invalid` and `aria-describedby` for the control of the field `id` (its errors' and hint's ids). */
export function fieldAria(id: string, error: FieldError, extra?: ReactNode) {
  const invalid = errorsOf(error).length > 0;
  const describedBy = [invalid && `${id}_help`, extra && `${id}_extra`].filter(Boolean).join(' ');
  return { 'aria-invalid': invalid ? ('true' as const) : undefined, 'aria-describedby': describedBy || undefined };
}

export default function PlainField({
  id,
  label,
  labelId,
  error,
  extra,
  children,
}: {
  /** The control's id (the label's `for`; `<id>_help` and `<id>_extra` for the texts below). */
  id: string;
  label?: ReactNode;
  /** A group of controls (radios) has no one control to label: its label gets this id for aria-labelledby. */
  labelId?: string;
  error?: FieldError;
  extra?: ReactNode;
  children: ReactNode;
}) {
  const errors = errorsOf(error);
  return (
    <div className={errors.length ? 'plain-form-item plain-form-item-has-error' : 'plain-form-item'}>
      {label != null && (
        <div className="plain-form-item-label">
          {labelId ? (
            <span id={labelId} className="plain-form-item-label-text">
              {label}
            </span>
          ) : (
            <label htmlFor={id} title={typeof label === 'string' ? label : undefined}>
              {label}
            </label>
          )}
        </div>
      )}
      <div className="plain-form-item-control">{children}</div>
      {errors.length > 0 && (
        <div id={`${id}_help`} className="plain-form-item-explain" role="alert">
          {errors.map((e, i) => (
            <div key={i} className="plain-form-item-explain-error">
              {e}
            </div>
          ))}
        </div>
      )}
      {extra != null && (
        <div id={`${id}_extra`} className="plain-form-item-extra">
          {extra}
        </div>
      )}
    </div>
  );
}
