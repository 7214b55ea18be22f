/**
 * What Swedish the public pages need: their namespaces (i18n/groups.ts); antd's locale loads with antd (i18n/index.ts `loadAntdLocale`), dayjs's with dates.ts.
 * One chunk, loaded only when Swedish is shown; the areas' namespaces are in area.sv.ts.
 */
import { namespaces } from './namespaces';

export const resources = namespaces(
  import.meta.glob<{ default: Record<string, unknown> }>('../locales/sv/{common,public,errors,routes,legal}.json', { eager: true }),
);
