import { App as AntApp, ConfigProvider, theme } from 'antd';
import { useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { HEADER_HEIGHT, ON_THEME_COLOR, THEME_COLOR, THEME_TEXT_COLOR } from './config/constants';
import i18n, { antdLocale } from './i18n';
import { createAppRouter } from './app/router';
import { useSession } from './store/session';

const router = createAppRouter();

export default function App() {
  const language = useSession((s) => s.utilities.language);
  // antd's texts follow the language whose chunk is loaded (i18n/index.ts loads only the active one).
  const { i18n: shown } = useTranslation();
  const themeConfig = useMemo(
    () => ({
      algorithm: theme.defaultAlgorithm,
      // Text on the theme colour is dark, and text in the theme's hue a darker
      // shade, so both keep at least 4.5:1 contrast (issue 14, WCAG AA).
      token: { colorPrimary: THEME_COLOR, colorLink: THEME_TEXT_COLOR, colorLinkHover: '#8f3a18', borderRadius: 6 },
      components: {
        Layout: { headerHeight: HEADER_HEIGHT, headerBg: '#ffffff', headerPadding: '0 16px', bodyBg: '#f5f6f8' },
        Button: { primaryColor: ON_THEME_COLOR, colorLink: THEME_TEXT_COLOR, colorPrimaryText: THEME_TEXT_COLOR },
        Menu: { darkItemSelectedColor: ON_THEME_COLOR },
        Tabs: { itemSelectedColor: THEME_TEXT_COLOR, itemHoverColor: THEME_TEXT_COLOR, itemActiveColor: THEME_TEXT_COLOR, inkBarColor: THEME_COLOR },
      },
    }),
    [],
  );
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider theme={themeConfig} locale={antdLocale(shown.resolvedLanguage ?? language)}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </I18nextProvider>
  );
}
