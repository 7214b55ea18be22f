/**
 * What English the public pages need: their namespaces (i18n/groups.ts); antd's locale loads with antd (i18n/index.ts `loadAntdLocale`), dayjs's with dates.ts.
 * One chunk, loaded only when English is shown; the areas' namespaces are in area.en.ts.
 */
import { namespaces } from './namespaces';
// The public pages' route titles only (i18n/groups.ts `PUBLIC_ROUTE_TITLES`): an area brings the rest.
import routes from '../locales/en/routes.json?public';

export const resources = {
  ...namespaces(import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/{common,public,errors,legal}.json', { eager: true })),
  routes,
};
