import { useTranslation } from 'react-i18next';
import Link from './Link';

/** The footer of every page: the terms and the privacy policy (readable signed in or not). */
export default function LegalLinks() {
  const { t } = useTranslation('legal');
  return (
    <footer className="legal-footer" data-testid="legal-footer">
      <Link to="/terms" data-testid="footer-terms">
        {t('legal.terms')}
      </Link>
      <span aria-hidden="true"> · </span>
      <Link to="/privacy" data-testid="footer-privacy">
        {t('legal.privacy')}
      </Link>
    </footer>
  );
}
