/** Everything English the interface needs: every namespace and antd's locale (dayjs's English is built in). One chunk, loaded only when English is shown. */
import antd from 'antd/locale/en_US';
import { namespaces } from './namespaces';

export const resources = namespaces(import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/*.json', { eager: true }));
export { antd };
