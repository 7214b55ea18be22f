import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from 'antd/es/locale';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../config/constants';
import { useEffect, useState } from 'react';
import { PAGE_NAMESPACES, PUBLIC_NAMESPACES, PUBLIC_PAGE_NAMESPACES, SERVER_NAMESPACE } from './groups';

/**
 * Locale data for the active language only: each language is one chunk (the
 * public pages' namespaces; antd's locale loads with antd, dayjs's is in dates.ts), loaded when the
 * language is first shown, and one more with the role areas' namespaces,
 * loaded with an area (`loadAreaTexts`; i18n/groups.ts). i18next asks for
 * them through this backend, so `changeLanguage` and `loadNamespaces` resolve
 * once the texts are in.
 */
type Bundle = { resources: Record<string, Record<string, unknown>> };
const BUNDLES: Record<Language, () => Promise<Bundle>> = {
  sv: () => import('./bundle.sv'),
  en: () => import('./bundle.en'),
};
const loaded: Partial<Record<Language, Bundle>> = {};
type AreaBundle = { resources: Record<string, Record<string, unknown>> };
const AREA_BUNDLES: Record<Language, () => Promise<AreaBundle>> = {
  sv: () => import('./area.sv'),
  en: () => import('./area.en'),
};
/** The texts of the areas' other pages (i18n/groups.ts `PAGE_NAMESPACES`): loaded with the first of them. */
const PAGE_BUNDLES: Record<Language, () => Promise<AreaBundle>> = {
  sv: () => import('./pages.sv'),
  en: () => import('./pages.en'),
};
const PUBLIC = new Set<string>(PUBLIC_NAMESPACES);
const PAGES = new Set<string>(PAGE_NAMESPACES);
/** Namespaces in a chunk of their own per language (i18n/groups.ts `OWN_CHUNK_NAMESPACES`), by file. */
const OWN_CHUNKS = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/{server,account,registration}.json');
/**
 * antd's locales: not in the language's chunk, as the first pages draw no antd (components/plain); loaded with antd's
 * theme (components/themed.ts), and from then on with every language shown.
 */
const ANTD_LOCALES: Record<Language, () => Promise<{ default: Locale }>> = {
  sv: () => import('antd/locale/sv_SE'),
  en: () => import('antd/locale/en_US'),
};
const antdLoaded: Partial<Record<Language, Locale>> = {};
let antdShown = false;
/** An area was shown: from then on the route titles of each language shown are all of them (`loadAreaTexts`). */
let areaShown = false;
async function loadAntdLocaleOf(lang: Language): Promise<void> {
  antdLoaded[lang] ??= (await ANTD_LOCALES[lang]()).default;
}

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
    const own = OWN_CHUNKS[`../locales/${lang}/${ns}.json`];
    const texts = own
      ? own().then((m) => m.default)
      : ns === 'routes'
        ? Promise.all([loadLanguage(lang), areaShown ? AREA_BUNDLES[lang]() : null]).then(([b, a]) => ({ ...b.resources.routes, ...a?.resources.routes }))
        : (PUBLIC.has(ns) ? loadLanguage(lang) : PAGES.has(ns) ? PAGE_BUNDLES[lang]() : AREA_BUNDLES[lang]()).then((b) => b.resources[ns] ?? {});
    texts.then(
      (r) => done(null, r),
      (e: unknown) => done(e instanceof Error ? e : new Error(String(e)), null),
    );
  },
};

/** Every namespace (src/locales/<lang>/<ns>.json); the same in both languages (locales.test.ts). */
export const NAMESPACES = Object.keys(import.meta.glob('../locales/sv/*.json')).map((p) => /\/([^/]+)\.json$/.exec(p)![1]);
/**
 * The role areas' namespaces loaded with an area (every one but the public pages' and the other pages'; with the
 * server's texts and the account's).
 */
export const AREA_NAMESPACES = NAMESPACES.filter((ns) => !PUBLIC.has(ns) && !PAGES.has(ns) && !(PUBLIC_PAGE_NAMESPACES as readonly string[]).includes(ns));

/** Loads namespaces in the shown language (and from then on in each language shown): a page's own (app/router.tsx). */
export function loadTexts(ns: readonly string[]): Promise<void> {
  return started.then(() => (ns.every((n) => i18n.hasResourceBundle(i18n.language, n)) ? undefined : i18n.loadNamespaces([...ns])));
}

/**
 * Loads the texts of the areas' pages but their first (i18n/groups.ts `PAGE_NAMESPACES`) in the shown language, and
 * from then on in each language shown: beside a page's chunk (app/pages.tsx), so the page draws with its texts.
 */
export function loadPageTexts(): Promise<void> {
  return loadTexts(PAGE_NAMESPACES);
}

/**
 * Loads the role areas' texts in the current language (the router loads them
 * with an area's chunk, so its first render has every text). Once loaded,
 * a language change loads them in the new language too (i18next keeps the
 * namespaces it was asked for).
 */
export async function loadAreaTexts(): Promise<void> {
  areaShown = true;
  const lang = i18n.resolvedLanguage ?? i18n.language;
  // Every route title: the language's first chunk has the public pages' only (i18n/groups.ts `PUBLIC_ROUTE_TITLES`).
  // In the shown language and in each shown before (i18next keeps their titles and loads them no more); a language
  // shown later reads them all from the backend.
  const titled = LANGUAGES.filter((l) => l === lang || i18n.hasResourceBundle(l, 'routes'));
  await Promise.all([
    i18n.loadNamespaces(AREA_NAMESPACES),
    ...titled.map((l) => AREA_BUNDLES[l]().then((a) => i18n.addResourceBundle(l, 'routes', a.resources.routes, true, true))),
  ]);
}

/**
 * i18next's start: the default language's texts loaded and the language set. The texts a request or a page asks for
 * wait for it: before it, i18next has no language to answer from, and a request made that early (by a test as soon as
 * its file was loaded) failed with a TypeError on a loaded machine, where the language's chunk took longer to load.
 */
const started: Promise<unknown> = i18n
  .use(bundleBackend)
  .use(initReactI18next)
  .init({
    // main.tsx loads the remembered language before the first render (applyLanguage).
    lng: DEFAULT_LANGUAGE,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    // The public pages' namespaces; the areas' come with the area (loadAreaTexts).
    ns: [...PUBLIC_NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });

/** Loads antd's locale of the shown language, and from then on of each language shown (before it is shown). */
export async function loadAntdLocale(): Promise<void> {
  antdShown = true;
  const lang = i18n.resolvedLanguage ?? i18n.language;
  await loadAntdLocaleOf(isLanguage(lang) ? lang : DEFAULT_LANGUAGE);
}

/** antd's locale for a language whose locale is loaded (components/AntdTheme.tsx; the loaded one otherwise). */
export function antdLocale(lang: string): Locale | undefined {
  return (isLanguage(lang) && antdLoaded[lang]) || Object.values(antdLoaded)[0];
}

/**
 * Show the interface in `lang`: texts, antd's locale and `<html lang>` (dates follow: dates.ts), once the
 * language's chunk is in. Called at start-up with the remembered language and
 * by the language switch (which remembers the choice in the session store);
 * i18n itself keeps no state.
 */
export async function applyLanguage(lang: Language): Promise<void> {
  await Promise.all([loadLanguage(lang), antdShown ? loadAntdLocaleOf(lang) : null]);
  // <html lang> first: the formatters read it (format.ts), and the pages re-render on the change below.
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  await i18n.changeLanguage(lang);
}

/**
 * Translate a stable server message key (`server:<key>`), falling back to the
 * raw text when no translation exists.
 */
const serverTextsShown = () => !!i18n.language && i18n.hasResourceBundle(i18n.language, SERVER_NAMESPACE);

/**
 * Loads the server's texts in the shown language (and from then on in each language shown): at once when they are
 * in. api/client.ts calls it beside every request and awaits it before handing back the answer.
 */
export function loadServerTexts(): Promise<void> {
  return started.then(() => (serverTextsShown() ? undefined : i18n.loadNamespaces(SERVER_NAMESPACE)));
}

/**
 * For a page that shows a server message without a request of its own (a notice handed over by another page):
 * loads the server's texts when `needed`; true once they are in (draw the message then, not its key).
 */
export function useServerTexts(needed: boolean): boolean {
  const [ready, setReady] = useState(serverTextsShown);
  useEffect(() => {
    if (!needed || ready) return;
    let live = true;
    void loadServerTexts().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [needed, ready]);
  return ready;
}

export function translateServerMessage(message: string): string {
  const key = message.trim();
  // Only stable keys (snake_case words) are looked up; free text is shown as is.
  if (/^[A-Za-z0-9_-]+$/.test(key) && i18n.exists(key, { ns: 'server' })) {
    return i18n.t(key, { ns: 'server' });
  }
  return message;
}

export default i18n;
