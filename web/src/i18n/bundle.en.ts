/**
 * What English the public pages need: their namespaces (i18n/groups.ts) and antd's locale (dayjs's: dates.ts).
 * One chunk, loaded only when English is shown; the areas' namespaces are in area.en.ts.
 */
import antd from 'antd/locale/en_US';
import { namespaces } from './namespaces';

export const resources = namespaces(
  import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/{common,public,account,registration,errors,server,routes,legal}.json', { eager: true }),
);
export { antd };
