import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';

// A missing brace in a sheet nests every later rule under the one before
// it (CSS nesting), and the bundler keeps it without a warning: the tag
// colours, link tabs and phone rules then silently stop applying. The sheets
// are written flat: only @media blocks hold rules.
// styles.css is the entry's (every page); layout/area.css what only the role areas draw (loaded with them).
const SHEETS = { 'styles.css': join(__dirname, 'styles.css'), 'layout/area.css': join(__dirname, 'layout', 'area.css') };

describe.each(Object.entries(SHEETS))('%s', (_name, file) => {
  const css = readFileSync(file, 'utf8');

  it('has no rule nested inside another rule', () => {
    const nested: string[] = [];
    postcss.parse(css).walkRules((rule) => {
      if (rule.parent?.type === 'rule') nested.push(`${(rule.parent as postcss.Rule).selector} { ${rule.selector} }`);
    });
    expect(nested).toEqual([]);
  });
});

describe('layout/area.css', () => {
  it('keeps the accessible tag colours at the top level', () => {
    const top = postcss.parse(readFileSync(SHEETS['layout/area.css'], 'utf8')).nodes.filter((n): n is postcss.Rule => n.type === 'rule').map((r) => r.selector);
    expect(top).toContain('.ant-tag.ant-tag-orange');
  });
});
