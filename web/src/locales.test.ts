import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(__dirname, 'locales');

function keys(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [prefix];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function load(lang: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, lang, file), 'utf8'));
}

describe('locales', () => {
  const svFiles = readdirSync(join(dir, 'sv')).sort();
  const enFiles = readdirSync(join(dir, 'en')).sort();

  it('sv and en have the same files', () => {
    expect(enFiles).toEqual(svFiles);
    expect(svFiles.length).toBeGreaterThan(0);
  });

  it.each(svFiles)('%s: sv and en hold exactly the same keys', (file) => {
    expect(keys(load('en', file)).sort()).toEqual(keys(load('sv', file)).sort());
  });

  it.each(svFiles)('%s: no empty strings', (file) => {
    for (const lang of ['sv', 'en']) {
      const flat = keys(load(lang, file));
      const data = load(lang, file);
      for (const k of flat) {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], data);
        expect(typeof v === 'string' && v.trim().length > 0, `${lang}/${file}: ${k}`).toBe(true);
      }
    }
  });

  it('holds the server keys the API sends', () => {
    const server = load('sv', 'server.json');
    for (const k of ['invalid_credentials', 'not_authenticated', 'token_expired', 'forbidden', 'not_found', 'validation_failed', 'internal']) {
      expect(server).toHaveProperty(k);
    }
  });
});
