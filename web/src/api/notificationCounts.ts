/**
 * The badges of the two header dropdowns (spec §2, §7, §9): the unseen count
 * of each, fetched when the header mounts, polled every 90 s, set to 0 when a
 * dropdown opens. One store for the header and the pages.
 *
 * The interval can be changed without a rebuild (the browser tests shorten
 * it): localStorage `notification_poll_ms` (milliseconds, at least 500).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { unseenCount } from './collaboration';
import type { DropdownKind } from '../types/collaboration';
import { NOTIFICATION_POLL_MS } from '../config/constants';

/** localStorage key overriding the polling interval (ms). */
export const POLL_STORAGE_KEY = 'notification_poll_ms';

/** The polling interval in force: the localStorage override, else spec §9's 90 s. */
export function notificationPollMs(): number {
  try {
    const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(POLL_STORAGE_KEY) : null;
    const n = raw == null ? NaN : Number(raw);
    if (Number.isFinite(n) && n >= 500) return n;
  } catch {
    /* storage unavailable */
  }
  return NOTIFICATION_POLL_MS;
}

export type Counts = Record<DropdownKind, number>;

let counts: Counts = { messages: 0, notifications: 0 };
const listeners = new Set<() => void>();

function set(next: Counts) {
  counts = next;
  listeners.forEach((l) => l());
}

export function getCounts(): Counts {
  return counts;
}

export function resetCounts(): void {
  set({ messages: 0, notifications: 0 });
}

/** How often each dropdown was opened: a count asked for before the last opening is out of date. */
const openings: Record<DropdownKind, number> = { messages: 0, notifications: 0 };

/** A dropdown was opened: its badge shows 0 at once. */
export function clearCount(kind: DropdownKind): void {
  openings[kind] += 1;
  if (counts[kind] !== 0) set({ ...counts, [kind]: 0 });
}

/** Fetch the counts of `kinds` now; a failure keeps the last known value. */
export async function refreshCounts(kinds: readonly DropdownKind[]): Promise<void> {
  await Promise.all(
    kinds.map(async (kind) => {
      const opened = openings[kind];
      try {
        const { count } = await unseenCount(kind);
        // Asked before the dropdown was opened, it still counts what the opening marked seen: the
        // badge would show it again until the next poll (90 s).
        if (openings[kind] !== opened) return;
        if (typeof count === 'number' && count !== counts[kind]) set({ ...counts, [kind]: count });
      } catch {
        /* keep the last count */
      }
    }),
  );
}

export function useCounts(): Counts {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => counts,
  );
}

/** Poll the counts of `kinds` while mounted (none: nothing). */
export function useCountPolling(kinds: readonly DropdownKind[], every: number = notificationPollMs()): void {
  const key = kinds.join(',');
  useEffect(() => {
    if (!key) return;
    const ks = key.split(',') as DropdownKind[];
    resetCounts();
    void refreshCounts(ks);
    const id = setInterval(() => void refreshCounts(ks), every);
    return () => clearInterval(id);
  }, [key, every]);
}
