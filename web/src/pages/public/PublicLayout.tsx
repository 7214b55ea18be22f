import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import LanguageSwitch from '../../components/LanguageSwitch';
import LegalLinks from '../../components/LegalLinks';
import Logo from '../../components/Logo';
import { HEADER_HEIGHT } from '../../config/constants';

/**
 * Shell of the public pages: header with logo and language switch. Plain
 * elements drawn as antd's Layout with the theme's header (styles.css
 * `.public-layout`): antd's Layout would put its component and style code on
 * the login page's budget; the role areas keep antd's Layout.
 */
export default function PublicLayout({ titleKey, children }: { titleKey: string; children: ReactNode }) {
  const { t } = useTranslation();
  const title = t(titleKey, { ns: 'routes' });
  useEffect(() => {
    document.title = `${title} | ${t('app.name')}`;
  }, [title, t]);
  return (
    <div className="public-layout" data-testid="public-layout">
      <header className="app-header public-header" style={{ height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px` }}>
        <div className="app-header-left">
          <Logo to="/" />
        </div>
        <div className="app-header-right">
          <LanguageSwitch />
        </div>
      </header>
      <main className="public-content">{children}</main>
      <LegalLinks />
    </div>
  );
}
