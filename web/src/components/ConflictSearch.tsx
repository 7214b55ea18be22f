import { Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/**
 * Build the fuzzy-result URL under the role's prefix (admin or lawyer); null
 * when the query is empty (the box submits only when non-empty).
 */
export function conflictSearchTarget(query: string, prefix = '/admin/'): string | null {
  const q = query.trim();
  if (!q) return null;
  return `${prefix}interest/?search=${encodeURIComponent(q)}`;
}

/**
 * Header box 'Search conflict of interests' (spec §2: admin header; lawyers
 * have the interest/ page too, so they get the same box).
 */
export default function ConflictSearch({ prefix = '/admin/', initial = '' }: { prefix?: string; initial?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  return (
    <Input.Search
      className="conflict-search"
      data-testid="conflict-search"
      placeholder={t('header.conflictSearch')}
      aria-label={t('header.conflictSearch')}
      allowClear
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onSearch={(v) => {
        const to = conflictSearchTarget(v, prefix);
        if (to) navigate(to);
      }}
    />
  );
}
