/**
 * Every language's texts at once, for tests that compare languages. The app
 * itself never imports this: it loads only the active language (i18n/index.ts).
 */
import { namespaces } from './namespaces';

const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });

export const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, mod] of Object.entries(files)) {
  const lang = /locales\/([^/]+)\//.exec(path)?.[1];
  if (lang) Object.assign((resources[lang] ??= {}), namespaces({ [path]: mod }));
}
