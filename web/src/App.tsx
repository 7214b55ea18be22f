import ConfigProvider from 'antd/es/config-provider';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { THEME } from './config/theme';
import i18n, { antdLocale } from './i18n';
import { AppRoutes } from './app/router';
import { useSession } from './store/session';
import { FORM_CONFIG } from './components/reveal';

// antd's App (message, modal, notification: rc-dialog, rc-notification) is not here but around the
// role areas (app/RoleArea.tsx), the only pages that use it: the login page does not load it (its budget).
// The §8 error notification loads when first needed (layout/notifier.tsx).
export default function App() {
  const language = useSession((s) => s.utilities.language);
  // antd's texts follow the language whose chunk is loaded (i18n/index.ts loads only the active one).
  const { i18n: shown } = useTranslation();
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider theme={THEME} locale={antdLocale(shown.resolvedLanguage ?? language)} form={FORM_CONFIG}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </ConfigProvider>
    </I18nextProvider>
  );
}
