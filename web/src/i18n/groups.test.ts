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
import { OWN_CHUNK_NAMESPACES, PUBLIC_NAMESPACES } from './groups';

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

/** Files reached from the roots by static imports (not `import()`), inside src/. */
function reached(): string[] {
  const seen = new Set<string>();
  const stack = ROOTS.map((r) => join(SRC, r));
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

describe('text namespaces: public pages and the areas', () => {
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
      const list = `{${PUBLIC_NAMESPACES.join(',')}}`;
      expect(readFileSync(join(SRC, `i18n/bundle.${lang}.ts`), 'utf8')).toContain(`../locales/${lang}/${list}.json`);
      expect(readFileSync(join(SRC, `i18n/area.${lang}.ts`), 'utf8')).toContain(`!../locales/${lang}/${list}.json`);
    }
  });

  test('the namespaces in chunks of their own are in neither language chunk, and each is loaded by itself', () => {
    const own = `{${OWN_CHUNK_NAMESPACES.join(',')}}`;
    for (const ns of OWN_CHUNK_NAMESPACES) expect(PUBLIC.has(ns), ns).toBe(false);
    for (const lang of ['sv', 'en']) expect(readFileSync(join(SRC, `i18n/area.${lang}.ts`), 'utf8')).toContain(`!../locales/${lang}/${own}.json`);
    expect(readFileSync(join(SRC, 'i18n/index.ts'), 'utf8')).toContain(`import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/${own}.json')`);
  });
});
