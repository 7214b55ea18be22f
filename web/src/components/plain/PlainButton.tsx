/**
 * antd's Button as the public pages use it (primary, default, text or link; large; block; loading), drawn by
 * CSS alone (styles.css `.plain-btn`): antd's Button needs its CSS-in-JS runtime and theme (~55 KiB gzip with
 * Input), which the first page's budget cannot hold (src/budget.test.ts). Same sizes, colours and states as the
 * app's antd theme (config/theme.ts).
 */
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import PlainIcon from './PlainIcon';

export interface PlainButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  type?: 'primary' | 'default' | 'text' | 'link';
  htmlType?: 'button' | 'submit';
  size?: 'middle' | 'large';
  block?: boolean;
  loading?: boolean;
  icon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

export default function PlainButton({
  type = 'default',
  htmlType = 'button',
  size = 'middle',
  block = false,
  loading = false,
  icon,
  className,
  children,
  ...rest
}: PlainButtonProps) {
  const classes = ['plain-btn', `plain-btn-${type}`, size === 'large' && 'plain-btn-lg', block && 'plain-btn-block', loading && 'plain-btn-loading', className]
    .filter(Boolean)
    .join(' ');
  const shownIcon = loading ? <PlainIcon icon={LoadingOutlined} spin /> : icon;
  return (
    <button type={htmlType} className={classes} aria-busy={loading || undefined} {...rest}>
      {shownIcon && <span className="plain-btn-icon">{shownIcon}</span>}
      {children != null && <span>{children}</span>}
    </button>
  );
}
