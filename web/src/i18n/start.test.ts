/**
 * A request made before i18next has started (its first language's texts still loading) waits for the start, then
 * loads the server's texts: before, it failed at once with a TypeError (i18next had no language yet). Seen when the
 * language's chunk loaded slowly on a busy machine; here the chunk is held back until the test lets it load.
 */
import i18n from 'i18next';
import { expect, test, vi } from 'vitest';

let release!: () => void;
const held = new Promise<void>((resolve) => (release = resolve));
vi.mock('./bundle.sv', async (importOriginal) => {
  await held;
  return importOriginal();
});

test('the server texts asked for before the start are loaded after it, without an error', async () => {
  const { loadServerTexts, loadTexts } = await import('./index');
  expect(i18n.isInitialized).toBeFalsy();
  expect(i18n.language).toBeUndefined();

  let loaded = false;
  const serverTexts = loadServerTexts().then(() => (loaded = true));
  const pageTexts = loadTexts(['account']);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(loaded).toBe(false);

  release();
  await Promise.all([serverTexts, pageTexts]);
  expect(i18n.language).toBe('sv');
  expect(i18n.hasResourceBundle('sv', 'server')).toBe(true);
  expect(i18n.hasResourceBundle('sv', 'account')).toBe(true);
});
