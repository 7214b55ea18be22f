import type { ReactNode } from 'react';
import Link from './Link';

export interface LinkTab {
  key: string;
  to: string;
  label: ReactNode;
  testId?: string;
}

/**
 * Tabs that are links (each list has its own URL, so Back and a shared link
 * work): every tab stays visible and wraps on a narrow screen instead of
 * hiding in an overflow menu.
 */
export default function LinkTabs({ items, active, testId, label }: { items: LinkTab[]; active?: string; testId?: string; label?: string }) {
  return (
    <nav className="link-tabs" data-testid={testId} aria-label={label}>
      {items.map((x) => (
        <Link
          key={x.key}
          to={x.to}
          className={x.key === active ? 'link-tab link-tab-active' : 'link-tab'}
          aria-current={x.key === active ? 'page' : undefined}
          data-testid={x.testId}
        >
          {x.label}
        </Link>
      ))}
    </nav>
  );
}
