// @vitest-environment node
/**
 * Every literal text key a component looks up exists in the namespaces its
 * `t` reads: the first namespace of `useTranslation`, or all of them with
 * `nsMode: 'fallback'` (react-i18next reads only the first otherwise, and a
 * key of another namespace shows as the raw key: the page budgets moved texts between
 * namespaces). Checked in Swedish; locales.test.ts keeps English the same.
 * Files with more than one `useTranslation` are skipped (which `t` is which is
 * not plain from the text), as are calls naming their namespace (`ns:` or
 * `ns:key`) and template keys.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = resolve(__dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === 'locales' || f === 'test' ? [] : files(p);
    return /\.tsx?$/.test(f) && !f.includes('.test.') ? [p] : [];
  });
}

const texts = new Map<string, unknown>();
function namespace(ns: string): unknown {
  // The add-on pages bring their own namespaces (pages/addons/texts.ts, meetings/texts.ts).
  const own: Record<string, string> = { addons: 'pages/addons/locales/sv.json', meetings: 'pages/addons/meetings/locales/sv.json' };
  if (!texts.has(ns)) texts.set(ns, JSON.parse(readFileSync(join(SRC, own[ns] ?? `locales/sv/${ns}.json`), 'utf8')));
  return texts.get(ns);
}

/** The key's text, with i18next's plural suffixes (`key_one`, `key_other`). */
function has(ns: string, key: string): boolean {
  const parts = key.split('.');
  const last = parts.pop()!;
  const parent = parts.reduce<unknown>((o, p) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[p] : undefined), namespace(ns));
  if (!parent || typeof parent !== 'object') return false;
  const o = parent as Record<string, unknown>;
  return last in o || `${last}_one` in o || `${last}_other` in o;
}

describe('text keys', () => {
  test("every literal key a component's t looks up is in a namespace it reads", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of files(SRC)) {
      const text = readFileSync(file, 'utf8');
      const hooks = [...text.matchAll(/useTranslation\(\s*(\[[^\]]*\]|'\w+')?\s*(,\s*\{([^}]*)\})?\s*\)/g)];
      if (hooks.length !== 1) continue;
      const [, arg, , opts] = hooks[0];
      const listed = arg ? [...arg.matchAll(/'(\w+)'/g)].map((m) => m[1]) : ['common'];
      const reads = opts?.includes("nsMode: 'fallback'") ? listed : listed.slice(0, 1);
      // t('key') or t('key', { … }) without a namespace of its own.
      for (const m of text.matchAll(/\bt\(\s*'([\w.]+)'\s*(,\s*\{([^}]*)\})?\s*[,)]/g)) {
        if (m[3]?.includes('ns:')) continue;
        checked++;
        if (!reads.some((ns) => has(ns, m[1]))) missing.push(`${file.slice(SRC.length + 1)}: ${m[1]} (reads ${reads.join(', ')})`);
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(missing).toEqual([]);
  });
});
