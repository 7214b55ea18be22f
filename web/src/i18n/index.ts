import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/sv';
import 'dayjs/locale/en';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../config/constants';

type Resources = Record<string, Record<string, Record<string, unknown>>>;

/** Every src/locales/<lang>/<namespace>.json, bundled eagerly. */
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });

export const resources: Resources = {};
for (const [path, mod] of Object.entries(files)) {
  const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!m) continue;
  const [, lang, ns] = m;
  (resources[lang] ??= {})[ns] = mod.default;
}

export const NAMESPACES = Object.keys(resources[DEFAULT_LANGUAGE] ?? {});

void i18n.use(initReactI18next).init({
  resources,
  // main.tsx applies the remembered language at start-up (applyLanguage).
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

dayjs.locale(DEFAULT_LANGUAGE);

/**
 * Show the interface in `lang`: texts, dates and `<html lang>`. Called at
 * start-up with the remembered language and by the language switch (which
 * remembers the choice in the session store); i18n itself keeps no state.
 */
export function applyLanguage(lang: Language): void {
  dayjs.locale(lang);
  void i18n.changeLanguage(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

/**
 * Translate a stable server message key (`server:<key>`), falling back to the
 * raw text when no translation exists.
 */
export function translateServerMessage(message: string): string {
  const key = message.trim();
  // Only stable keys (snake_case words) are looked up; free text is shown as is.
  if (/^[A-Za-z0-9_-]+$/.test(key) && i18n.exists(key, { ns: 'server' })) {
    return i18n.t(key, { ns: 'server' });
  }
  return message;
}

export default i18n;
