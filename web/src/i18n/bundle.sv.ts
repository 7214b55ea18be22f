/**
 * What Swedish the public pages need: their namespaces (i18n/groups.ts), dayjs's and antd's locale.
 * One chunk, loaded only when Swedish is shown; the areas' namespaces are in area.sv.ts.
 */
import 'dayjs/locale/sv';
import antd from 'antd/locale/sv_SE';
import { namespaces } from './namespaces';

export const resources = namespaces(
  import.meta.glob<{ default: Record<string, unknown> }>('../locales/sv/{common,public,account,registration,errors,server,routes,content}.json', { eager: true }),
);
export { antd };
