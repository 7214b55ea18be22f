import { afterEach, describe, expect, it, vi } from 'vitest';

/** The theme reads the system's motion preference when it loads. */
async function themeWith(reduce: boolean) {
  vi.resetModules();
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: reduce && query === '(prefers-reduced-motion: reduce)', media: query, addEventListener() {}, removeEventListener() {} })),
  );
  return (await import('./theme')).THEME;
}

describe('theme motion (WCAG 2.3.3)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turns antd motion off for whoever asked their system for less motion', async () => {
    expect((await themeWith(true)).token?.motion).toBe(false);
  });

  it('keeps it on otherwise', async () => {
    expect((await themeWith(false)).token?.motion).toBe(true);
  });
});
