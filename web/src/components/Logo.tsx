import { useTranslation } from 'react-i18next';
import Link from './Link';

/** Logo mark + product name. */
export default function Logo({ to = '/', compact = false }: { to?: string; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="logo" data-testid="logo" aria-label={t('app.name')}>
      <span className="logo-mark" aria-hidden>
        §
      </span>
      {!compact && <span className="logo-text">{t('app.name')}</span>}
    </Link>
  );
}
