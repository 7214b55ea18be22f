import { describe, expect, it } from 'vitest';
import { antdLocale, applyLanguage, loadAntdLocale } from './index';

// antd's locale is not in the language's chunk (the first pages draw no antd): it loads with antd's theme, in the
// shown language, and from then on each language shown brings its own before it is shown.
describe("antd's locale", () => {
  it('none before antd is drawn; the shown language with antd; each language shown after', async () => {
    await applyLanguage('sv');
    expect(antdLocale('sv')).toBeUndefined();
    await loadAntdLocale();
    expect(antdLocale('sv')?.locale).toBe('sv');
    // Not loaded yet: the loaded one stands in.
    expect(antdLocale('en')?.locale).toBe('sv');
    await applyLanguage('en');
    expect(antdLocale('en')?.locale).toBe('en');
    expect(antdLocale('sv')?.locale).toBe('sv');
    await applyLanguage('sv');
  });
});
