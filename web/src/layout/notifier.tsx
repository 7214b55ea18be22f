/**
 * antd's global notification and message, drawn in the app's theme and the
 * shown language, outside the React tree: the §8 error notification (loaded
 * when the first failed call is shown, so not on the login page's budget,
 * issue 20) and a message that must outlive the role area it was shown in
 * (two-factor settings signing out to /login).
 */
import ConfigProvider from 'antd/es/config-provider';
import message from 'antd/es/message';
import notification from 'antd/es/notification';
import { THEME } from '../config/theme';
import i18n, { antdLocale } from '../i18n';

ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider theme={THEME} locale={antdLocale(i18n.resolvedLanguage ?? 'sv')}>
      {children}
    </ConfigProvider>
  ),
});

export { message };
export default notification;
