import { Layout } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import LanguageSwitch from '../../components/LanguageSwitch';
import LegalLinks from '../../components/LegalLinks';
import Logo from '../../components/Logo';
import { HEADER_HEIGHT } from '../../config/constants';

/** Shell of the public pages: header with logo and language switch. */
export default function PublicLayout({ titleKey, children }: { titleKey: string; children: ReactNode }) {
  const { t } = useTranslation();
  const title = t(titleKey, { ns: 'routes' });
  useEffect(() => {
    document.title = `${title} | ${t('app.name')}`;
  }, [title, t]);
  return (
    <Layout className="public-layout" data-testid="public-layout">
      <Layout.Header className="app-header" style={{ height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px` }}>
        <div className="app-header-left">
          <Logo to="/" />
        </div>
        <div className="app-header-right">
          <LanguageSwitch />
        </div>
      </Layout.Header>
      <Layout.Content className="public-content">{children}</Layout.Content>
      <LegalLinks />
    </Layout>
  );
}
