/**
 * The Swedish texts of the areas' other pages (i18n/groups.ts `PAGE_NAMESPACES`): loaded with the first of them, not
 * with the area (i18n/index.ts `loadPageTexts`).
 */
import { namespaces } from './namespaces';

export const resources = namespaces(import.meta.glob<{ default: Record<string, unknown> }>('../locales/sv/{caseDocuments,caseHours,cases,catalogue,conflict,content,customerAdmin,customers,people,profile,settings,users}.json', { eager: true }));
