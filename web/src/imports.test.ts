// @vitest-environment node
/**
 * No import circles in web/src (the layers: types ← store ← api ← pages, one route catalogue): a circle makes
 * the order modules initialise in depend on which one a page loads first. madge reads every import, dynamic
 * and type-only ones too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import madge from 'madge';
import { expect, test } from 'vitest';

// madge's TypeScript parser warns of a field it reads, once per file: noise in the test log.
process.noDeprecation = true;

const WEB = resolve(__dirname, '..');
const options = { fileExtensions: ['ts', 'tsx'], tsConfig: join(WEB, 'tsconfig.json') };

test('web/src has no import circle', async () => {
  const graph = await madge(join(WEB, 'src'), options);
  // The graph was read: the entry imports the app, and the pages' lazy imports (import()) are arrows too.
  expect(graph.obj()['main.tsx']).toContain('App.tsx');
  expect(graph.obj()['app/pages.tsx']).toContain('pages/customers/CustomerList.tsx');
  expect(Object.keys(graph.obj()).length).toBeGreaterThan(200);
  expect(graph.circular()).toEqual([]);
}, 120_000);

test('a circle is found, through a type-only import too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'circle-'));
  try {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'b.ts'), "import type { C } from './c';\nexport const b: C = 1;\n");
    writeFileSync(join(dir, 'c.ts'), "import { a } from './a';\nexport type C = number;\nexport const c = a;\n");
    const graph = await madge(dir, options);
    expect(graph.circular()).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
