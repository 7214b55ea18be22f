/**
 * antd's ConfigProvider with the app's theme, its locale in the shown language and the forms' settings, around
 * what draws antd components: the role areas and every page or part loaded lazily (app/router.tsx `themed`,
 * components/MessageAlert.tsx, LanguageMenu.tsx, the registration's done screen). Not around the whole app: the
 * first pages (login, two-factor, registration) draw no antd component (components/plain), and with antd's
 * ConfigProvider in the entry they would load its CSS-in-JS runtime and theme (src/budget.test.ts).
 */
import ConfigProvider from 'antd/es/config-provider';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FORM_CONFIG } from './reveal';
import { THEME } from '../config/theme';
import { antdLocale } from '../i18n';
import { useSession } from '../store/session';

export default function AntdTheme({ children }: { children: ReactNode }) {
  const language = useSession((s) => s.utilities.language);
  // antd's texts follow the language whose chunk is loaded (i18n/index.ts loads only the active one).
  const { i18n: shown } = useTranslation();
  return (
    <ConfigProvider theme={THEME} locale={antdLocale(shown.resolvedLanguage ?? language)} form={FORM_CONFIG}>
      {children}
    </ConfigProvider>
  );
}

/** A component drawn inside AntdTheme (for a lazily loaded module's default export). */
export function withAntdTheme<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  const Themed = (props: P) => (
    <AntdTheme>
      <Component {...props} />
    </AntdTheme>
  );
  Themed.displayName = `Themed(${Component.displayName ?? Component.name})`;
  return Themed;
}
