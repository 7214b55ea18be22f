/**
 * A page loaded before its first render draws at once, with no Suspense fallback before it: React holds a
 * revealed page back until 300 ms after its fallback appeared, which was most of the wait between the entry and
 * the two-factor and registration pages on a slow phone (infra/bench-web.sh).
 */
import { act, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, test } from 'vitest';
import { preloadable } from './preloadable';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Renders `node` under a Suspense boundary and notes every time its fallback was drawn. */
async function draw(node: ReactNode) {
  const fallbacks: string[] = [];
  function Fallback() {
    fallbacks.push('fallback');
    return <p>loading</p>;
  }
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () => root.render(<Suspense fallback={<Fallback />}>{node}</Suspense>));
  return { container, fallbacks, unmount: () => act(() => root.unmount()) };
}

type Module = { default: (props: { who: string }) => ReactNode };
const page = (text: string) => (): Promise<Module> => Promise.resolve({ default: ({ who }) => <p>{`${text} ${who}`}</p> });

describe('preloadable pages', () => {
  test('preloaded, it draws at its first render, without the fallback', async () => {
    const Page = preloadable(page('hello'));
    await Page.preload();
    const drawn = await draw(<Page who="reader" />);
    expect(drawn.container.textContent).toBe('hello reader');
    expect(drawn.fallbacks).toEqual([]);
    await drawn.unmount();
  });

  test('not preloaded, it loads as a lazy page does: the fallback, then the page', async () => {
    const Page = preloadable(page('later'));
    const drawn = await draw(<Page who="reader" />);
    expect(drawn.fallbacks.length).toBeGreaterThan(0);
    expect(drawn.container.textContent).toBe('later reader');
    await drawn.unmount();
  });

  test('a failed load is tried again by the next preload', async () => {
    let calls = 0;
    const Page = preloadable(() => (++calls === 1 ? Promise.reject<Module>(new Error('offline')) : page('again')()));
    await expect(Page.preload()).rejects.toThrow('offline');
    await Page.preload();
    expect(calls).toBe(2);
    const drawn = await draw(<Page who="reader" />);
    expect(drawn.container.textContent).toBe('again reader');
    expect(drawn.fallbacks).toEqual([]);
    await drawn.unmount();
  });

  test('the module is loaded once however often it is asked for', async () => {
    let calls = 0;
    const Page = preloadable(() => {
      calls += 1;
      return page('once')();
    });
    await Promise.all([Page.preload(), Page.preload()]);
    await Page.preload();
    expect(calls).toBe(1);
  });
});
