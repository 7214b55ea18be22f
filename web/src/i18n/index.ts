import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../config/constants';

/**
 * Locale data for the active language only: each language is one chunk (its
 * namespaces, dayjs's and antd's locale), loaded when the language is first
 * shown. i18next asks for it through this backend, so `changeLanguage`
 * resolves once the texts are in.
 */
type Bundle = { resources: Record<string, Record<string, unknown>>; antd: Locale };
const BUNDLES: Record<Language, () => Promise<Bundle>> = {
  sv: () => import('./bundle.sv'),
  en: () => import('./bundle.en'),
};
const loaded: Partial<Record<Language, Bundle>> = {};

function isLanguage(lang: string): lang is Language {
  return (LANGUAGES as readonly string[]).includes(lang);
}

/** Loads a language's chunk once (later calls reuse it). */
export async function loadLanguage(lang: Language): Promise<Bundle> {
  return (loaded[lang] ??= await BUNDLES[lang]());
}

const bundleBackend: BackendModule = {
  type: 'backend',
  init: () => {},
  read: (lang, ns, done) => {
    if (!isLanguage(lang)) return done(null, {});
    loadLanguage(lang).then(
      (b) => done(null, b.resources[ns] ?? {}),
      (e: unknown) => done(e instanceof Error ? e : new Error(String(e)), null),
    );
  },
};

/** Every namespace (src/locales/<lang>/<ns>.json); the same in both languages (locales.test.ts). */
export const NAMESPACES = Object.keys(import.meta.glob('../locales/sv/*.json')).map((p) => /\/([^/]+)\.json$/.exec(p)![1]);

void i18n
  .use(bundleBackend)
  .use(initReactI18next)
  .init({
    // main.tsx loads the remembered language before the first render (applyLanguage).
    lng: DEFAULT_LANGUAGE,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    ns: NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });

/** antd's locale for a language whose chunk is loaded (App.tsx; the loaded one otherwise). */
export function antdLocale(lang: string): Locale | undefined {
  return (isLanguage(lang) && loaded[lang]?.antd) || Object.values(loaded)[0]?.antd;
}

/**
 * Show the interface in `lang`: texts, dates and `<html lang>`, once the
 * language's chunk is in. Called at start-up with the remembered language and
 * by the language switch (which remembers the choice in the session store);
 * i18n itself keeps no state.
 */
export async function applyLanguage(lang: Language): Promise<void> {
  await loadLanguage(lang);
  dayjs.locale(lang);
  await i18n.changeLanguage(lang);
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
