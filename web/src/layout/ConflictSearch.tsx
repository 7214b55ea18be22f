import { Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Build the fuzzy-result URL; null when the query is empty (the box submits only when non-empty). */
export function conflictSearchTarget(query: string): string | null {
  const q = query.trim();
  if (!q) return null;
  return `/admin/interest/?search=${encodeURIComponent(q)}`;
}

/** Admin header: 'Search conflict of interests' (spec §2). */
export default function ConflictSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState('');
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
        const to = conflictSearchTarget(v);
        if (to) navigate(to);
      }}
    />
  );
}
