// @vitest-environment node
/**
 * The namespace groups (i18n/groups.ts): the public pages, and everything the
 * entry imports statically, use only the namespaces of the language's first
 * chunk; the areas' namespaces load with an area. Fails when a public page
 * starts using an area namespace (its texts would show as keys there).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { OWN_CHUNK_NAMESPACES, PAGE_NAMESPACES, PUBLIC_NAMESPACES, PUBLIC_ROUTE_TITLES } from './groups';

const SRC = resolve(__dirname, '..');
const PUBLIC = new Set<string>(PUBLIC_NAMESPACES);
// And the namespaces in chunks of their own, which the public pages load with themselves (app/router.tsx) or, the
// server's texts, with an answer (the client loads them beside each call).
const SHOWN_ON_PUBLIC_PAGES = new Set<string>([...PUBLIC_NAMESPACES, ...OWN_CHUNK_NAMESPACES]);

/** The entry, the public pages and Not Found (app/router.tsx loads them lazily, outside any area). */
const ROOTS = ['main.tsx', 'pages/NotFound.tsx', ...readdirSync(join(SRC, 'pages/public')).filter((f) => /\.tsx$/.test(f) && !f.includes('.test.')).map((f) => `pages/public/${f}`)];

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(c) && /\.tsx?$/.test(c)) return c;
  return null;
}

/**
 * An area's first pages and what they load lazily without the other pages' texts (app/pages.tsx, layout/AppLayout.tsx
 * load those with the rest): the shell, the dashboards with their figures and rating card, the customer's home with its
 * services, the notifications' panel and the terms' acceptance.
 */
const AREA_ROOTS = [
  'app/RoleArea.tsx',
  'pages/subscriptions/CustomerHome.tsx',
  'pages/DashboardFigures.tsx',
  'components/collaboration/LawyerRatingSummaryCard.tsx',
  'pages/subscriptions/CustomerSubscriptionsTable.tsx',
  'layout/NotificationPanel.tsx',
  'components/LegalAcceptance.tsx',
];

/** Files reached from the roots by static imports (not `import()`), inside src/. */
function reached(roots: string[] = ROOTS): string[] {
  const seen = new Set<string>();
  const stack = roots.map((r) => join(SRC, r));
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g)) {
      const next = resolveImport(file, m[1]);
      if (next) stack.push(next);
    }
  }
  return [...seen];
}

/** Namespaces a file names: useTranslation('ns' | ['ns', …]), { ns: 'ns' }, t('ns:key'). */
function namespacesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/useTranslation\(\s*'(\w+)'/g)) out.push(m[1]);
  for (const m of text.matchAll(/useTranslation\(\s*\[([^\]]*)\]/g)) out.push(...[...m[1].matchAll(/'(\w+)'/g)].map((x) => x[1]));
  for (const m of text.matchAll(/\bns:\s*'(\w+)'/g)) out.push(m[1]);
  for (const m of text.matchAll(/\bt\(\s*'(\w+):/g)) out.push(m[1]);
  return out;
}

/** The route titles the public pages name (`titleKey`), literal or chosen among literals. */
function publicTitleKeys(): string[] {
  const dir = join(SRC, 'pages/public');
  const keys = new Set<string>();
  for (const f of readdirSync(dir).filter((f) => /\.tsx$/.test(f) && !f.includes('.test.'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(/titleKey="(\w+)"/g)) keys.add(m[1]);
    // A choice (`a === 'x' ? 'title' : …`): the values after `?` and `:`.
    for (const m of text.matchAll(/const titleKey = ([^;]+);/g)) for (const k of m[1].matchAll(/[?:]\s*'(\w+)'/g)) keys.add(k[1]);
  }
  return [...keys].sort();
}

describe('text namespaces: public pages and the areas', () => {
  test("the language's first chunk has every route title a public page shows", () => {
    const keys = publicTitleKeys();
    expect(keys).toEqual(expect.arrayContaining(['login', 'registration', 'authentication', 'confirmAccount']));
    // LegalPage's title is its kind (app/router.tsx: terms, privacy).
    for (const k of [...keys, 'terms', 'privacy']) expect(PUBLIC_ROUTE_TITLES as readonly string[], k).toContain(k);
  });

  test('every public namespace exists in both languages', () => {
    for (const lang of ['sv', 'en']) for (const ns of PUBLIC_NAMESPACES) expect(existsSync(join(SRC, 'locales', lang, `${ns}.json`)), `${lang}/${ns}`).toBe(true);
  });

  test('the entry and the public pages use only the public namespaces', () => {
    const files = reached();
    expect(files.some((f) => f.endsWith('pages/public/Login.tsx'))).toBe(true);
    expect(files.some((f) => f.endsWith('app/RoleArea.tsx'))).toBe(false);
    const outside = files.flatMap((f) => namespacesIn(readFileSync(f, 'utf8')).filter((ns) => !SHOWN_ON_PUBLIC_PAGES.has(ns)).map((ns) => `${f.slice(SRC.length + 1)}: ${ns}`));
    expect(outside).toEqual([]);
  });

  test('the language chunks list the same public namespaces as groups.ts', () => {
    for (const lang of ['sv', 'en']) {
      // The route titles apart: the first chunk has the public pages' (`routes.json?public`), the area's all of them.
      const list = `{${PUBLIC_NAMESPACES.filter((ns) => ns !== 'routes').join(',')}}`;
      const bundle = readFileSync(join(SRC, `i18n/bundle.${lang}.ts`), 'utf8');
      expect(bundle).toContain(`../locales/${lang}/${list}.json`);
      expect(bundle).toContain(`import routes from '../locales/${lang}/routes.json?public';`);
      expect(readFileSync(join(SRC, `i18n/area.${lang}.ts`), 'utf8')).toContain(`!../locales/${lang}/${list}.json`);
    }
  });

  test("an area's first pages use none of the other pages' namespaces, which are in a chunk of their own", () => {
    const files = reached(AREA_ROOTS);
    expect(files.some((f) => f.endsWith('pages/Dashboard.tsx'))).toBe(true);
    const pages = new Set<string>(PAGE_NAMESPACES);
    const used = files.flatMap((f) => namespacesIn(readFileSync(f, 'utf8')).filter((ns) => pages.has(ns)).map((ns) => `${f.slice(SRC.length + 1)}: ${ns}`));
    expect(used).toEqual([]);
    const list = `{${PAGE_NAMESPACES.join(',')}}`;
    for (const lang of ['sv', 'en']) {
      for (const ns of PAGE_NAMESPACES) expect(existsSync(join(SRC, 'locales', lang, `${ns}.json`)), `${lang}/${ns}`).toBe(true);
      expect(readFileSync(join(SRC, `i18n/area.${lang}.ts`), 'utf8')).toContain(`!../locales/${lang}/${list}.json`);
      expect(readFileSync(join(SRC, `i18n/pages.${lang}.ts`), 'utf8')).toContain(`'../locales/${lang}/${list}.json'`);
    }
  });

  test('the namespaces in chunks of their own are in neither language chunk, and each is loaded by itself', () => {
    const own = `{${OWN_CHUNK_NAMESPACES.join(',')}}`;
    for (const ns of OWN_CHUNK_NAMESPACES) expect(PUBLIC.has(ns), ns).toBe(false);
    for (const lang of ['sv', 'en']) expect(readFileSync(join(SRC, `i18n/area.${lang}.ts`), 'utf8')).toContain(`!../locales/${lang}/${own}.json`);
    expect(readFileSync(join(SRC, 'i18n/index.ts'), 'utf8')).toContain(`import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/${own}.json')`);
  });
});
