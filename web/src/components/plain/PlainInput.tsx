/**
 * antd's Input and Input.Password as the public forms use them (a prefix icon, an error status, disabled; the
 * password's show/hide eye), drawn by CSS alone (styles.css `.plain-input`): antd's need its CSS-in-JS runtime and
 * theme, which the first page's budget cannot hold (src/budget.test.ts). The attributes go to the `<input>`.
 */
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import PlainIcon from './PlainIcon';

export interface PlainInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> {
  prefix?: ReactNode;
  suffix?: ReactNode;
  status?: 'error';
}

export default function PlainInput({ prefix, suffix, status, disabled, className, type = 'text', ...rest }: PlainInputProps) {
  const classes = ['plain-input', status === 'error' && 'plain-input-error', disabled && 'plain-input-disabled', className].filter(Boolean).join(' ');
  return (
    <span className={classes}>
      {prefix != null && <span className="plain-input-prefix">{prefix}</span>}
      <input type={type} disabled={disabled} {...rest} />
      {suffix != null && <span className="plain-input-suffix">{suffix}</span>}
    </span>
  );
}

/** A password field with antd's eye to show or hide it (the eye keeps the focus in the field, as antd's). */
export function PlainPassword(props: Omit<PlainInputProps, 'type' | 'suffix'>) {
  const [visible, setVisible] = useState(false);
  const eye = (
    <PlainIcon
      icon={visible ? EyeOutlined : EyeInvisibleOutlined}
      className="plain-input-password-icon"
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => !props.disabled && setVisible((v) => !v)}
    />
  );
  return <PlainInput {...props} type={visible ? 'text' : 'password'} suffix={eye} />;
}
