// antd's Input.Search drawn by plain elements (styles.css `.plain-input`, layout/area.css `.conflict-search`): the
// header is an area's first page, which loads no antd (src/budget.test.ts).
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import SearchOutlined from '@ant-design/icons-svg/es/asn/SearchOutlined';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Role } from '../auth/roles';
import { pathFor } from '../routes/pathFor';
import PlainIcon from './plain/PlainIcon';

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
 * have the interest/ page too, so they get the same box): Enter or the search
 * button opens the results; the clear button empties the box.
 */
export default function ConflictSearch({ role, initial = '' }: { role: Role; initial?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  return (
    <form
      role="search"
      className="conflict-search"
      data-testid="conflict-search"
      onSubmit={(e) => {
        e.preventDefault();
        const to = conflictSearchTarget(value, role);
        if (to) navigate(to);
      }}
    >
      <span className="plain-input conflict-search-input">
        <input
          ref={input}
          type="text"
          enterKeyHint="search"
          placeholder={t('header.conflictSearch')}
          aria-label={t('header.conflictSearch')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        {value && (
          <button
            type="button"
            className="conflict-search-clear"
            aria-label={t('header.clearSearch')}
            onClick={() => {
              setValue('');
              input.current?.focus();
            }}
          >
            <PlainIcon icon={CloseCircleFilled} aria-hidden />
          </button>
        )}
      </span>
      <button type="submit" className="plain-btn plain-btn-default conflict-search-button" aria-label={t('header.search')}>
        <PlainIcon icon={SearchOutlined} aria-hidden />
      </button>
    </form>
  );
}
