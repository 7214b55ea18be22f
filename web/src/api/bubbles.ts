/**
 * Entity counts for menu badges (spec §3 `pending_cases`, `pending_customers`),
 * from GET /api/bubbles/: fetched when a menu with badges mounts, polled every
 * 10 minutes (spec §7, §9), and refreshed at once after an action that
 * changes them (e.g. approving a customer).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { fetchBubbles } from './customers';
import type { Bubbles } from '../types/customers';
import { ENTITY_COUNT_POLL_MS } from '../config/constants';

export type BubbleKey = keyof Bubbles;

let counts: Bubbles = { pending_cases: 0, pending_customers: 0 };
const listeners = new Set<() => void>();

function set(next: Bubbles) {
  counts = next;
  listeners.forEach((l) => l());
}

export function getBubbles(): Bubbles {
  return counts;
}

export function resetBubbles(): void {
  set({ pending_cases: 0, pending_customers: 0 });
}

/** Fetch the counts now; failures keep the last known values. */
export async function refreshBubbles(): Promise<void> {
  try {
    const b = await fetchBubbles();
    if (b && typeof b.pending_customers === 'number') set({ pending_cases: b.pending_cases ?? 0, pending_customers: b.pending_customers });
  } catch {
    /* keep the last counts */
  }
}

export function useBubbles(): Bubbles {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => counts,
  );
}

/** Poll while mounted and `enabled` (the admin menu). */
export function useBubblePolling(enabled: boolean, every: number = ENTITY_COUNT_POLL_MS): void {
  useEffect(() => {
    if (!enabled) return;
    void refreshBubbles();
    const id = setInterval(() => void refreshBubbles(), every);
    return () => clearInterval(id);
  }, [enabled, every]);
}
