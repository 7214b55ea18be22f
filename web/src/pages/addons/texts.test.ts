import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import sv from './locales/sv.json';

function keys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

describe('add-on texts', () => {
  it('Swedish and English have the same keys, none empty', () => {
    expect(keys(sv).sort()).toEqual(keys(en).sort());
    for (const [lang, texts] of Object.entries({ en, sv })) {
      for (const k of keys(texts)) {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], texts);
        expect(String(v).trim(), `${lang} ${k}`).not.toBe('');
      }
    }
  });
});
