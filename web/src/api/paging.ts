import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { Page } from '../types/paging';

export interface CursorList<T> {
  rows: T[];
  loading: boolean;
  /** The last fetch failed (the client showed the spec §8 notification): not an empty list. */
  error: boolean;
  /** 1-based page number shown to the user. */
  page: number;
  hasNext: boolean;
  hasPrevious: boolean;
  next: () => void;
  previous: () => void;
  reload: () => void;
}

/**
 * Key-paged lists (10 per page, newest first): the server hands out a cursor
 * for the next page; earlier pages are revisited through the cursors seen.
 * A change of `filterKey` (e.g. another list kind) starts again at page 1.
 */
export function useCursorList<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>, filterKey: string): CursorList<T> {
  const [trail, setTrail] = useState<{ key: string; cursors: (string | null)[] }>({ key: filterKey, cursors: [null] });
  const cursors = trail.key === filterKey ? trail.cursors : [null];
  const current = cursors[cursors.length - 1];
  const [rows, setRows] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    fetchPage(current)
      .then((p) => {
        if (!live) return;
        setError(false);
        setRows(p.results ?? []);
        setNext(p.next ?? null);
      })
      .catch(() => {
        if (live) {
          setError(true);
          setRows([]);
          setNext(null);
        }
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // fetchPage is recreated each render; the list depends on what it asks for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterKey, current, tick]);

  const nextPage = useCallback(() => {
    if (next) setTrail({ key: filterKey, cursors: [...cursors, next] });
  }, [next, filterKey, cursors]);
  const previousPage = useCallback(() => {
    if (cursors.length > 1) setTrail({ key: filterKey, cursors: cursors.slice(0, -1) });
  }, [filterKey, cursors]);

  return {
    rows,
    loading,
    error,
    page: cursors.length,
    hasNext: next != null,
    hasPrevious: cursors.length > 1,
    next: nextPage,
    previous: previousPage,
    reload: useCallback(() => setTick((t) => t + 1), []),
  };
}

export interface MoreList<T> {
  rows: T[];
  loading: boolean;
  /** The first page's fetch failed (the client showed the spec §8 notification): not an empty list. */
  error: boolean;
  /** The server has more rows after those shown. */
  hasMore: boolean;
  /** Appends the next page to the rows shown. */
  more: () => Promise<void>;
  /** Reads the first page again. */
  reload: () => Promise<void>;
  /** For a change the page makes itself (a row added or updated) without reading again. */
  setRows: Dispatch<SetStateAction<T[]>>;
}

/**
 * Key-paged lists shown as one growing list ("more" appends the next page): a change of `filterKey` reads the
 * first page again. An answer to an earlier key, or one arriving after the page closed, is dropped; a failed
 * "more" keeps the rows shown.
 */
export function useMoreList<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>, filterKey: string): MoreList<T> {
  const [rows, setRows] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(false);
  const seq = useRef(0);
  // The latest closure: a page passes a new arrow each render, the list depends on `filterKey` only.
  const latest = useRef(fetchPage);
  latest.current = fetchPage;

  const read = useCallback(async (cursor: string | null) => {
    const n = ++seq.current;
    setLoading(true);
    try {
      const page = await latest.current(cursor);
      if (n !== seq.current) return;
      setRows((old) => (cursor ? [...old, ...(page.results ?? [])] : (page.results ?? [])));
      setNext(page.next ?? null);
      setError(false);
    } catch {
      if (n === seq.current && !cursor) setError(true);
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void read(null);
    return () => {
      seq.current++;
    };
  }, [filterKey, read]);

  return {
    rows,
    loading,
    error,
    hasMore: next != null,
    more: useCallback(() => (next ? read(next) : Promise.resolve()), [read, next]),
    reload: useCallback(() => read(null), [read]),
    setRows,
  };
}
