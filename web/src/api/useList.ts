import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';

export interface Loaded<T> {
  /** null until the first answer; then the latest answer (a failed read keeps what was shown). */
  data: T | null;
  loading: boolean;
  /** The last read failed (the API client has shown the spec §8 notification). */
  error: boolean;
  /** Reads again; resolves once the answer is in (pages await it after a change). */
  reload: () => Promise<void>;
  /** For a change the page makes itself (a row marked, one removed) without reading again. */
  set: Dispatch<SetStateAction<T | null>>;
}

/**
 * What a page reads from the API when it opens, and again on `reload()` or when `key` (what the read depends on,
 * e.g. a uid) changes: then `data` is null again until the new answer. An answer to an earlier read or key, or one arriving after the page closed, is dropped.
 * A failed read keeps what was shown, or shows `fallback` when nothing was (the client has already notified).
 * `key` null: nothing to read yet (no uid chosen): `data` null, not loading, `reload` reads nothing.
 */
export function useLoad<T>(fetch: () => Promise<T>, key: string | number | null = '', fallback: T | null = null): Loaded<T> {
  const [data, set] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(false);
  const seq = useRef(0);
  // The latest closure: a page passes a new arrow each render, the read depends on `key` only.
  const latest = useRef({ fetch, fallback, key });
  latest.current = { fetch, fallback, key };

  const reload = useCallback(async () => {
    const n = ++seq.current;
    if (latest.current.key === null) {
      setLoading(false);
      return;
    }
    setLoading(true);
    try {
      const value = await latest.current.fetch();
      if (n !== seq.current) return;
      set(() => value);
      setError(false);
    } catch {
      if (n !== seq.current) return;
      setError(true);
      set((old) => old ?? latest.current.fallback);
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    // Another key reads another thing: what the last one read (or failed to) is not shown meanwhile.
    set(null);
    setError(false);
    void reload();
    return () => {
      seq.current++;
    };
  }, [key, reload]);

  return { data, loading, error, reload, set };
}

/** A list a page reads (useLoad): `rows` null until the first answer; an empty list when the first read fails. */
export function useList<T>(fetch: () => Promise<T[]>, key: string | number | null = ''): Loaded<T[]> & { rows: T[] | null } {
  const loaded = useLoad<T[]>(fetch, key, []);
  return { ...loaded, rows: loaded.data };
}
