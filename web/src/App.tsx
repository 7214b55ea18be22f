import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import i18n from './i18n';
import { AppRoutes } from './app/router';

// No antd ConfigProvider here: the first pages (login, two-factor, registration) draw no antd component
// (components/plain), and its CSS-in-JS runtime and theme would be on their budget (src/budget.test.ts). What
// draws antd loads lazily inside components/AntdTheme.tsx (the role areas, the other pages: app/router.tsx `themed`).
// antd's App (message, modal, notification) is around the role areas (app/RoleArea.tsx), the only pages that use
// it. The §8 error notification loads when first needed (layout/notifier.tsx, with its own ConfigProvider).
export default function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </I18nextProvider>
  );
}
