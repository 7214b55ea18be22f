/**
 * antd's global notification, message and confirm dialog, drawn in the app's
 * theme and the shown language, outside the React tree: the §8 error
 * notification (loaded when the first failed call is shown, so not on the
 * login page's budget), the pages' confirmations and confirm dialogs
 * (layout/feedback.ts), and a message that outlives the role area it was shown
 * in (two-factor settings signing out to /login).
 */
import ConfigProvider from 'antd/es/config-provider';
import message from 'antd/es/message';
import Modal from 'antd/es/modal';
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
/** Modal's static methods (confirm), which holderRender draws in the theme too. */
export const modal = Modal;
export default notification;
