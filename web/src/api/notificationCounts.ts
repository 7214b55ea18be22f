/**
 * The badges of the two header dropdowns (spec §2, §7, §9): the unseen count
 * of each, fetched when the header mounts, polled every 90 s, set to 0 when a
 * dropdown opens (which tells the server its items were seen). One store for
 * the header and the pages.
 *
 * The interval can be changed without a rebuild (the browser tests shorten
 * it): localStorage `notification_poll_ms` (milliseconds, at least 500).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { markSeen, unseenCount } from './collaboration';
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

/**
 * How often each dropdown was opened, and how many of those openings' seen marks the server has
 * answered (or failed to). A count is out of date when it was asked for before the last opening, or
 * while a seen mark was on its way: the server may have counted before marking.
 */
const openings: Record<DropdownKind, number> = { messages: 0, notifications: 0 };
const marksAnswered: Record<DropdownKind, number> = { messages: 0, notifications: 0 };

/**
 * A dropdown was opened: its badge shows 0 at once, and the server is told its items were seen
 * (spec §4). Resolves when the server has answered; a failed mark leaves the server's count, which
 * the next poll shows.
 */
export async function dropdownOpened(kind: DropdownKind): Promise<void> {
  openings[kind] += 1;
  if (counts[kind] !== 0) set({ ...counts, [kind]: 0 });
  try {
    await markSeen(kind);
  } catch {
    /* the next poll shows the server's count */
  } finally {
    marksAnswered[kind] += 1;
  }
}

/** Fetch the counts of `kinds` now; a failure keeps the last known value. */
export async function refreshCounts(kinds: readonly DropdownKind[]): Promise<void> {
  await Promise.all(
    kinds.map(async (kind) => {
      const opened = openings[kind];
      const answered = marksAnswered[kind];
      try {
        const { count } = await unseenCount(kind);
        // Asked before the dropdown was opened, or while its seen mark was on its way, it may still
        // count what the opening marked seen: the badge would show it again until the next poll (90 s).
        if (answered !== opened || openings[kind] !== opened || marksAnswered[kind] !== answered) return;
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
