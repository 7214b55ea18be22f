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
// The public pages' route titles (vite.config.ts `publicRouteTitles`), as the app's first chunk has them.
import svRoutes from '../locales/sv/routes.json?public';
import enRoutes from '../locales/en/routes.json?public';
import { LANGUAGE_LABELS, LANGUAGES, type Language } from '../config/constants';
import { formatMoney, formatNumber } from '../format';

const TEXTS: Record<Language, Record<string, unknown>> = {
  sv: { common: { app: svApp }, public: { landing: svLanding }, routes: { landing: svRoutes.landing } },
  en: { common: { app: enApp }, public: { landing: enLanding }, routes: { landing: enRoutes.landing } },
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
  shown = lang;
  renderOffer(lang);
  document.documentElement.lang = lang;
  document.title = `${text(lang, 'routes.landing')} | ${text(lang, 'common.app.name')}`;
  document.querySelectorAll<HTMLElement>('[data-i18n]').forEach((el) => (el.textContent = text(lang, el.dataset.i18n!)));
  document.querySelectorAll<HTMLElement>('[data-i18n-label]').forEach((el) => el.setAttribute('aria-label', text(lang, el.dataset.i18nLabel!)));
  const label = document.querySelector<HTMLElement>('[data-language-label]');
  if (label) label.textContent = LANGUAGE_LABELS[lang];
  document.querySelector('[data-testid="language-switch"]')?.setAttribute('data-language', lang);
  document.querySelectorAll<HTMLElement>('li[data-language]').forEach((li) => li.setAttribute('aria-checked', String(li.dataset.language === lang)));
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

interface OfferPackage {
  id: number;
  name: string;
  hours: number;
  price: number;
  duration_days: number;
}
interface OfferPlan {
  id: number;
  name: string;
  limit: number | null;
  hours: number | null;
  price: number;
  expiry_days: number;
}
let offer: { packages: OfferPackage[]; service_plans: OfferPlan[] } | null = null;
let shown: Language = 'sv';

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));

/** One card of the offer; every value goes in as text, never as markup. */
function card(name: string, price: number, lines: string[]): HTMLLIElement {
  const li = document.createElement('li');
  li.className = 'static-col';
  const box = document.createElement('div');
  box.className = 'static-card landing-offer-card';
  const h = document.createElement('p');
  h.className = 'landing-offer-name';
  h.textContent = name;
  const p = document.createElement('p');
  p.className = 'landing-offer-price';
  p.textContent = formatMoney(price, shown);
  box.append(h, p);
  for (const line of lines) {
    const l = document.createElement('p');
    l.className = 'static-paragraph static-secondary';
    l.textContent = line;
    box.append(l);
  }
  li.append(box);
  return li;
}

/** The public packages and service plans with their SEK prices (GET /api/public/offer/, no sign-in). */
function renderOffer(lang: Language): void {
  if (!offer) return;
  const lists = { packages: offer.packages, plans: offer.service_plans } as const;
  for (const kind of ['packages', 'plans'] as const) {
    const list = document.querySelector<HTMLUListElement>(`[data-offer-list="${kind}"]`);
    const heading = document.querySelector<HTMLElement>(`[data-offer-heading="${kind}"]`);
    if (!list || !heading) continue;
    heading.hidden = lists[kind].length === 0;
    list.replaceChildren(
      ...(kind === 'packages'
        ? offer.packages.map((p) =>
            card(p.name, p.price, [fill(text(lang, 'public.landing.offer.hours'), { hours: formatNumber(p.hours, { lang }) }), fill(text(lang, 'public.landing.offer.days'), { days: p.duration_days })]),
          )
        : offer.service_plans.map((p) =>
            card(p.name, p.price, [
              p.limit != null ? fill(text(lang, 'public.landing.offer.uses'), { limit: p.limit }) : fill(text(lang, 'public.landing.offer.hours'), { hours: formatNumber(p.hours ?? 0, { lang }) }),
              fill(text(lang, 'public.landing.offer.days'), { days: p.expiry_days }),
            ]),
          )),
    );
  }
}

fetch('/api/public/offer/')
  .then((r) => (r.ok ? r.json() : null))
  .then((o: typeof offer) => {
    offer = o;
    renderOffer(shown);
  })
  .catch(() => undefined);

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
  const li = (e.target as HTMLElement).closest<HTMLElement>('li[data-language]');
  const lang = LANGUAGES.find((l) => l === li?.dataset.language);
  if (!lang) return;
  remember(lang);
  show(lang);
  open(false);
});
