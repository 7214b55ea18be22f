// Search from its own module: antd's `input` barrel also brings TextArea, OTP and Group to every area's first page (its budget).
import Search from 'antd/es/input/Search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Role } from '../auth/roles';
import { pathFor } from '../routes/pathFor';

/**
 * The fuzzy-result URL (interest/?search=) of the role (admin or lawyer);
 * null when the query is empty (the box submits only when non-empty).
 */
export function conflictSearchTarget(query: string, role: Role = 'admin'): string | null {
  const q = query.trim();
  if (!q) return null;
  return pathFor(role, 'interest', {}, { search: q });
}

/**
 * Header box 'Search conflict of interests' (spec §2: admin header; lawyers
 * have the interest/ page too, so they get the same box).
 */
export default function ConflictSearch({ role, initial = '' }: { role: Role; initial?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  return (
    <Search
      className="conflict-search"
      data-testid="conflict-search"
      placeholder={t('header.conflictSearch')}
      aria-label={t('header.conflictSearch')}
      allowClear
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onSearch={(v) => {
        const to = conflictSearchTarget(v, role);
        if (to) navigate(to);
      }}
    />
  );
}
