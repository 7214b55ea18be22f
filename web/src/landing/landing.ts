/**
 * The static landing page's only script (no React, no antd): a signed-in
 * visitor goes on to the app (which sends them to their dashboard), the
 * remembered language is shown, and the language switch remembers a choice
 * in the app's own storage (`root` in localStorage, store/session.ts).
 */
import '../styles.css';
import './landing.css';
import { app as svApp } from '../locales/sv/common.json';
import { app as enApp } from '../locales/en/common.json';
import { landing as svLanding } from '../locales/sv/public.json';
import { landing as enLanding } from '../locales/en/public.json';
import { landing as svTitle } from '../locales/sv/routes.json';
import { landing as enTitle } from '../locales/en/routes.json';
import { LANGUAGE_LABELS, LANGUAGES, type Language } from '../config/constants';

const TEXTS: Record<Language, Record<string, unknown>> = {
  sv: { common: { app: svApp }, public: { landing: svLanding }, routes: { landing: svTitle } },
  en: { common: { app: enApp }, public: { landing: enLanding }, routes: { landing: enTitle } },
};

const STORAGE_KEY = 'root';

type Stored = { auth?: { access_token?: unknown } | null; utilities?: { language?: unknown; initialRoute?: unknown } } & Record<string, unknown>;

function stored(): Stored {
  try {
    return (JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Stored | null) ?? {};
  } catch {
    return {};
  }
}

function text(lang: Language, key: string): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], TEXTS[lang]);
  return typeof value === 'string' ? value : key;
}

function show(lang: Language): void {
  document.documentElement.lang = lang;
  document.title = `${text(lang, 'routes.landing')} | ${text(lang, 'common.app.name')}`;
  document.querySelectorAll<HTMLElement>('[data-i18n]').forEach((el) => (el.textContent = text(lang, el.dataset.i18n!)));
  document.querySelectorAll<HTMLElement>('[data-i18n-label]').forEach((el) => el.setAttribute('aria-label', text(lang, el.dataset.i18nLabel!)));
  const label = document.querySelector<HTMLElement>('[data-language-label]');
  if (label) label.textContent = LANGUAGE_LABELS[lang];
  document.querySelector('[data-testid="language-switch"]')?.setAttribute('data-language', lang);
  document.querySelectorAll<HTMLElement>('[data-language]').forEach((li) => li.setAttribute('aria-checked', String(li.dataset.language === lang)));
}

function remember(lang: Language): void {
  const s = stored();
  const next = {
    user: null,
    auth: null,
    services: { token: null },
    verified: null,
    permission: [],
    ...s,
    utilities: { initialRoute: null, ...(s.utilities ?? {}), language: lang },
  };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}

const state = stored();
if (typeof state.auth?.access_token === 'string') {
  // Signed in: the app's public pages send a signed-in user to their dashboard (spec §2).
  location.replace('/login');
}
const remembered = LANGUAGES.find((l) => l === state.utilities?.language) ?? 'sv';
if (remembered !== 'sv') show(remembered);
else show('sv');

const button = document.querySelector<HTMLButtonElement>('[data-testid="language-switch"]')!;
const menu = document.querySelector<HTMLUListElement>('.static-menu')!;
function open(shown: boolean): void {
  menu.hidden = !shown;
  button.setAttribute('aria-expanded', String(shown));
}
button.addEventListener('click', (e) => {
  e.stopPropagation();
  open(menu.hidden);
});
document.addEventListener('click', () => open(false));
menu.addEventListener('click', (e) => {
  const li = (e.target as HTMLElement).closest<HTMLElement>('[data-language]');
  const lang = LANGUAGES.find((l) => l === li?.dataset.language);
  if (!lang) return;
  remember(lang);
  show(lang);
  open(false);
});
