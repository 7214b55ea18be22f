/**
 * The public pages' card, title and lead paragraph (login, two-factor,
 * registration, password recovery): plain elements drawn as antd's Card and
 * Typography draw them (styles.css `.plain-card`, `.public-card`), because antd's Card
 * brings Tabs (rc-tabs, rc-menu, rc-dropdown) and Skeleton, and Typography
 * its copy/edit/ellipsis (Tooltip, TextArea) into the first page a user
 * loads (its budget: ≤ 200 KiB before the login form is usable). The title and
 * lead are also the dashboards' (pages/Dashboard.tsx): an area's first page
 * loads no Typography either (src/budget.test.ts).
 */
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';

type Props = Omit<HTMLAttributes<HTMLDivElement>, 'className'> & { className?: string; 'data-testid'?: string };

/** antd's bordered Card with a body: white, 1px #f0f0f0 border, 8px corners, 24px padding. */
export function PublicCard({ className, style, children, ...rest }: Props & { style?: CSSProperties }) {
  return (
    <div className={className ? `plain-card public-card ${className}` : 'plain-card public-card'} style={style} {...rest}>
      <div className="plain-card-body">{children}</div>
    </div>
  );
}

/** Typography.Title's look (level 2 or 4). */
export function PublicTitle({ level = 2, children, ...rest }: { level?: 2 | 4; children: ReactNode; 'data-testid'?: string }) {
  const Heading = level === 2 ? 'h2' : 'h4';
  return (
    <Heading className={`public-title public-title-${level}`} {...rest}>
      {children}
    </Heading>
  );
}

/** Typography.Paragraph type="secondary"'s look. */
export function PublicLead({ children, ...rest }: { children: ReactNode; 'data-testid'?: string }) {
  return (
    <div className="public-lead" {...rest}>
      {children}
    </div>
  );
}
