import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useList, type Loaded } from './useList';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A read the test answers when it likes. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const roots: Array<() => void> = [];
afterEach(() => roots.splice(0).forEach((unmount) => unmount()));

/** Renders a component that uses useList(fetch, key) and hands back the hook's latest answer. */
async function mount(fetch: (key: string | null) => Promise<string[]>, key: string | null = 'a') {
  const seen: { current: Loaded<string[]> & { rows: string[] | null } } = { current: null as never };
  function Probe({ k }: { k: string | null }) {
    seen.current = useList(() => fetch(k), k);
    return null;
  }
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Probe k={key} />));
  roots.push(() => act(() => root.unmount()));
  return { seen, rekey: (k: string | null) => act(async () => root.render(<Probe k={k} />)) };
}

describe('useList: what a page reads when it opens', () => {
  it('is null and loading until the answer, then the rows', async () => {
    const read = deferred<string[]>();
    const { seen } = await mount(() => read.promise);
    expect(seen.current.rows).toBeNull();
    expect(seen.current.loading).toBe(true);
    await act(async () => read.resolve(['x', 'y']));
    expect(seen.current.rows).toEqual(['x', 'y']);
    expect(seen.current.loading).toBe(false);
    expect(seen.current.error).toBe(false);
  });

  it('a failed first read shows an empty list; a failed reload keeps the rows shown', async () => {
    let answer: () => Promise<string[]> = () => Promise.reject(new Error('down'));
    const { seen } = await mount(() => answer());
    expect(seen.current.rows).toEqual([]);
    expect(seen.current.error).toBe(true);
    answer = () => Promise.resolve(['x']);
    await act(() => seen.current.reload());
    expect(seen.current.rows).toEqual(['x']);
    expect(seen.current.error).toBe(false);
    answer = () => Promise.reject(new Error('down'));
    await act(() => seen.current.reload());
    expect(seen.current.rows).toEqual(['x']);
    expect(seen.current.error).toBe(true);
    expect(seen.current.loading).toBe(false);
  });

  it('reads again when the key changes, shows nothing of the earlier key meanwhile, and drops its late answer', async () => {
    const reads: Record<string, ReturnType<typeof deferred<string[]>>> = { a: deferred(), b: deferred() };
    const { seen, rekey } = await mount((k) => reads[k!].promise);
    await rekey('b');
    expect(seen.current.rows).toBeNull();
    await act(async () => reads.b.resolve(['from b']));
    expect(seen.current.rows).toEqual(['from b']);
    await act(async () => reads.a.resolve(['from a']));
    expect(seen.current.rows).toEqual(['from b']);
  });

  it('after an answer, another key shows null again until its own answer', async () => {
    const reads: Record<string, ReturnType<typeof deferred<string[]>>> = { a: deferred(), b: deferred() };
    const { seen, rekey } = await mount((k) => reads[k!].promise);
    await act(async () => reads.a.resolve(['from a']));
    expect(seen.current.rows).toEqual(['from a']);
    await rekey('b');
    expect(seen.current.rows).toBeNull();
    expect(seen.current.loading).toBe(true);
  });

  it('reload reads again, and resolves once the answer is in', async () => {
    let calls = 0;
    const { seen } = await mount(() => Promise.resolve([`read ${++calls}`]));
    expect(seen.current.rows).toEqual(['read 1']);
    await act(() => seen.current.reload());
    expect(calls).toBe(2);
    expect(seen.current.rows).toEqual(['read 2']);
  });

  it('a null key reads nothing (not even on reload) until a key is given', async () => {
    const keys: Array<string | null> = [];
    const { seen, rekey } = await mount((k) => {
      keys.push(k);
      return Promise.resolve([`for ${k}`]);
    }, null);
    expect(seen.current.rows).toBeNull();
    expect(seen.current.loading).toBe(false);
    await act(() => seen.current.reload());
    expect(keys).toEqual([]);
    await rekey('a');
    expect(seen.current.rows).toEqual(['for a']);
    await rekey(null);
    expect(seen.current.rows).toBeNull();
    expect(keys).toEqual(['a']);
  });

  it('set changes the rows without reading again', async () => {
    let calls = 0;
    const { seen } = await mount(() => Promise.resolve([`read ${++calls}`]));
    await act(async () => seen.current.set((rows) => [...(rows ?? []), 'added']));
    expect(seen.current.rows).toEqual(['read 1', 'added']);
    expect(calls).toBe(1);
  });
});
