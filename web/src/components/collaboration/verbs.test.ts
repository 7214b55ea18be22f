/**
 * Every notification verb the server stores (the Rust enum
 * shared::domain::notification::Verb, read from its source) has a text in
 * Swedish and English, naming only values the server sends (Params), and an
 * icon; a verb added on the server without texts fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARAM_NAMES, VERB_ICONS, VERBS } from './notificationView';

const rust = readFileSync(join(__dirname, '..', '..', '..', '..', 'shared', 'src', 'domain', 'notification.rs'), 'utf8');

/** The variants of `pub enum <name>` as serde's snake_case names. */
function enumVariants(name: string): string[] {
  const body = new RegExp(`pub enum ${name} \\{([^}]*)\\}`).exec(rust)?.[1] ?? '';
  return body
    .split('\n')
    .map((l) => l.replace(/\/\/.*$/, '').trim())
    .filter((l) => /^[A-Z][A-Za-z0-9]*,?$/.test(l))
    .map((l) => l.replace(',', '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
}

/** The fields of `pub struct <name>`. */
function structFields(name: string): string[] {
  const body = new RegExp(`pub struct ${name} \\{([\\s\\S]*?)\\n\\}`).exec(rust)?.[1] ?? '';
  return [...body.matchAll(/pub (\w+):/g)].map((m) => m[1]);
}

const load = (lang: string) =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'locales', lang, 'notifications.json'), 'utf8')) as { verbs: Record<string, string> };

describe('notification verbs', () => {
  const serverVerbs = enumVariants('Verb');

  it('are read from the server enum (serde snake_case)', () => {
    expect(serverVerbs).toContain('message_received');
    expect(serverVerbs).toContain('customer_awaiting_approval');
    expect(serverVerbs.length).toBeGreaterThanOrEqual(17);
    expect(rust).toMatch(/pub enum Verb[\s\S]*?#\[serde\(rename_all = "snake_case"\)\]|#\[serde\(rename_all = "snake_case"\)\]\s*pub enum Verb/);
  });

  it('the web knows exactly the server verbs, each with an icon', () => {
    expect([...VERBS].sort()).toEqual([...serverVerbs].sort());
    for (const v of serverVerbs) expect(VERB_ICONS[v as keyof typeof VERB_ICONS], v).toBeTruthy();
  });

  it.each(['sv', 'en'])('%s: every verb has a text and no text names an unknown verb', (lang) => {
    const texts = load(lang).verbs;
    for (const v of serverVerbs) expect(texts[v], `${lang}: ${v}`).toMatch(/\S/);
    expect(Object.keys(texts).sort()).toEqual([...serverVerbs].sort());
  });

  it.each(['sv', 'en'])('%s: texts name only the values the server sends', (lang) => {
    const params = structFields('Params');
    expect([...PARAM_NAMES].sort()).toEqual([...params].sort());
    for (const [verb, text] of Object.entries(load(lang).verbs)) {
      for (const [, name] of text.matchAll(/\{\{(\w+)\}\}/g)) expect(params, `${lang}: ${verb} names {{${name}}}`).toContain(name);
    }
  });
});
