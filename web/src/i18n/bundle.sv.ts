/** Everything Swedish the interface needs: every namespace, dayjs's and antd's locale. One chunk, loaded only when Swedish is shown. */
import 'dayjs/locale/sv';
import antd from 'antd/locale/sv_SE';
import { namespaces } from './namespaces';

export const resources = namespaces(import.meta.glob<{ default: Record<string, unknown> }>('../locales/sv/*.json', { eager: true }));
export { antd };
