import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';

// A missing brace in styles.css nests every later rule under the one before
// it (CSS nesting), and the bundler keeps it without a warning: the tag
// colours, link tabs and phone rules then silently stop applying. The sheet
// is written flat: only @media blocks hold rules.
describe('styles.css', () => {
  const css = readFileSync(join(__dirname, 'styles.css'), 'utf8');

  it('has no rule nested inside another rule', () => {
    const nested: string[] = [];
    postcss.parse(css).walkRules((rule) => {
      if (rule.parent?.type === 'rule') nested.push(`${(rule.parent as postcss.Rule).selector} { ${rule.selector} }`);
    });
    expect(nested).toEqual([]);
  });

  it('keeps the accessible tag colours at the top level', () => {
    const top = postcss.parse(css).nodes.filter((n): n is postcss.Rule => n.type === 'rule').map((r) => r.selector);
    expect(top).toContain('.ant-tag.ant-tag-orange');
  });
});
