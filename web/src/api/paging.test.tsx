import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useMoreList, type MoreList } from './paging';
import type { Page } from '../types/paging';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const roots: Array<() => void> = [];
afterEach(() => roots.splice(0).forEach((unmount) => unmount()));

/** Renders a component that uses useMoreList(fetch, key) and hands back the hook's latest answer. */
async function mount(fetch: (key: string, cursor: string | null) => Promise<Page<string>>, key = 'a') {
  const seen: { current: MoreList<string> } = { current: null as never };
  function Probe({ k }: { k: string }) {
    seen.current = useMoreList((cursor) => fetch(k, cursor), k);
    return null;
  }
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Probe k={key} />));
  roots.push(() => act(() => root.unmount()));
  return { seen, rekey: (k: string) => act(async () => root.render(<Probe k={k} />)) };
}

/** Two pages per key: `<key>1` with a cursor to `<key>2`. */
const twoPages = (key: string, cursor: string | null): Promise<Page<string>> =>
  Promise.resolve(cursor ? { results: [`${key}2`], next: null } : { results: [`${key}1`], next: 'c' });

describe('useMoreList: a key-paged list that grows', () => {
  it('"more" appends the next page; another key starts again from its first page', async () => {
    const { seen, rekey } = await mount(twoPages);
    expect(seen.current.rows).toEqual(['a1']);
    expect(seen.current.hasMore).toBe(true);
    await act(() => seen.current.more());
    expect(seen.current.rows).toEqual(['a1', 'a2']);
    expect(seen.current.hasMore).toBe(false);
    await rekey('b');
    expect(seen.current.rows).toEqual(['b1']);
  });

  it('a failed first page is an error, not an empty list; a failed "more" keeps the rows', async () => {
    let fail = true;
    const { seen } = await mount((k, cursor) => (fail || cursor ? Promise.reject(new Error('down')) : twoPages(k, cursor)));
    expect(seen.current.error).toBe(true);
    fail = false;
    await act(() => seen.current.reload());
    expect(seen.current.error).toBe(false);
    expect(seen.current.rows).toEqual(['a1']);
    await act(() => seen.current.more());
    expect(seen.current.rows).toEqual(['a1']);
    expect(seen.current.error).toBe(false);
    expect(seen.current.loading).toBe(false);
  });

  it("drops an earlier key's late answer", async () => {
    let answerA!: (p: Page<string>) => void;
    const { seen, rekey } = await mount((k, cursor) => (k === 'a' ? new Promise((res) => (answerA = res)) : twoPages(k, cursor)));
    await rekey('b');
    await act(async () => answerA({ results: ['late a'], next: null }));
    expect(seen.current.rows).toEqual(['b1']);
  });
});
