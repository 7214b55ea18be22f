import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The worker's preload (src/test/preloadRequiredEsm.cjs, vite.config.ts `test.execArgv`): the ES modules CommonJS
// dependencies require() are loaded before the tests, and any other is refused at once rather than left to race.
describe('the test workers preload the ES modules that CommonJS dependencies require()', () => {
  const require = createRequire(import.meta.url);

  it('antd icons’ CommonJS build reads the preloaded colour generator', () => {
    const colorUtils = require('@ant-design/icons/lib/colorUtils') as { getSecondaryColor: (c: string) => string };
    expect(colorUtils.getSecondaryColor('#1677ff')).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('an ES module required for the first time after the preload is refused, naming the module and the list', () => {
    const dir = mkdtempSync(join(tmpdir(), 'late-esm-'));
    try {
      const file = join(dir, 'late.mjs');
      writeFileSync(file, 'export const late = 1;\n');
      expect(() => require(file)).toThrow(/late\.mjs' after the test preload: add it to PRELOADED/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
