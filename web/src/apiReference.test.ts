// @vitest-environment node
/**
 * The API reference page's texts (api-reference/labels.json, vite.config.ts
 * `apiReference`): both languages name the same texts, and they name every
 * label the installed Redoc draws (its defaults, read from its bundle), so a
 * Redoc upgrade with a new label fails here instead of showing English on
 * the Swedish page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const WEB = join(__dirname, '..');
type Texts = { title: string; loading: string; noscript: string; redoc: Record<string, string> };
const labels = JSON.parse(readFileSync(join(WEB, 'api-reference', 'labels.json'), 'utf8')) as Record<'sv' | 'en', Texts>;

/** Redoc's default labels (English), as its standalone bundle defines them. */
function redocDefaults(): Record<string, string> {
  const bundle = readFileSync(join(WEB, 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'), 'utf8');
  const m = /\{enum:"Enum",[^{}]*\}/.exec(bundle);
  if (!m) throw new Error("Redoc's default labels not found in its bundle");
  return Object.fromEntries([...m[0].matchAll(/(\w+):"([^"]*)"/g)].map((x) => [x[1], x[2]]));
}

describe('the API reference page', () => {
  test('both languages name the same texts, none blank', () => {
    const keys = (t: Texts) => [...Object.keys(t).filter((k) => k !== 'redoc'), ...Object.keys(t.redoc).map((k) => `redoc.${k}`)].sort();
    expect(keys(labels.en)).toEqual(keys(labels.sv));
    for (const t of [labels.sv, labels.en]) for (const v of [t.title, t.loading, t.noscript, ...Object.values(t.redoc)]) expect(v.trim()).not.toBe('');
  });

  test("every label Redoc draws is translated, and the English ones are Redoc's own", () => {
    const defaults = redocDefaults();
    expect(Object.keys(defaults).length).toBeGreaterThan(10);
    expect(Object.keys(labels.sv.redoc).sort()).toEqual(Object.keys(defaults).sort());
    expect(labels.en.redoc).toEqual(defaults);
    expect(labels.sv.redoc.responses).not.toBe(defaults.responses);
  });

  test("the page's script takes the texts from the build", () => {
    const init = readFileSync(join(WEB, 'api-reference', 'init.js'), 'utf8');
    expect(init).toContain('var TEXTS = __TEXTS__;');
    expect(init).toContain('window.Redoc.init(');
  });
});
