/**
 * An antd icon drawn from its SVG definition (`@ant-design/icons-svg`) without
 * `@ant-design/icons`' component, its context and its style injection (which
 * need antd's CSS-in-JS runtime): the same markup (`span.anticon > svg`, role
 * img, labelled by the icon's name), styled by styles.css `.anticon`. For the
 * public pages, which draw no antd component (src/budget.test.ts).
 */
import { createElement, type HTMLAttributes, type ReactElement } from 'react';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';

/** SVG attributes as React names them (`fill-rule` → `fillRule`, `class` → `className`), as `@ant-design/icons` does. */
function reactAttrs(attrs: AbstractNode['attrs']): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(attrs)) out[name === 'class' ? 'className' : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  return out;
}

function draw(node: AbstractNode, key: number, root: boolean): ReactElement {
  const attrs: Record<string, string | number | boolean> = { ...reactAttrs(node.attrs), key };
  if (root) Object.assign(attrs, { width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': 'true' });
  return createElement(node.tag, attrs, ...(node.children ?? []).map((child, i) => draw(child, i, false)));
}

export default function PlainIcon({
  icon,
  spin = false,
  className,
  ...rest
}: { icon: IconDefinition; spin?: boolean } & Omit<HTMLAttributes<HTMLSpanElement>, 'children'>) {
  // Two-tone icons are functions of their colours; the plain pages use outlined and filled ones only.
  const svg = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  const classes = ['anticon', `anticon-${icon.name}`, spin && 'plain-spin', className].filter(Boolean).join(' ');
  return (
    <span role="img" aria-label={icon.name} className={classes} {...rest}>
      {draw(svg, 0, true)}
    </span>
  );
}
