/**
 * What Swedish the public pages need: their namespaces (i18n/groups.ts) and antd's locale (dayjs's: dates.ts).
 * One chunk, loaded only when Swedish is shown; the areas' namespaces are in area.sv.ts.
 */
import antd from 'antd/locale/sv_SE';
import { namespaces } from './namespaces';

export const resources = namespaces(
  import.meta.glob<{ default: Record<string, unknown> }>('../locales/sv/{common,public,account,registration,errors,server,routes,legal}.json', { eager: true }),
);
export { antd };
