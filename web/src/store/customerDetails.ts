/**
 * The global customer-details modal (spec §2 shared UI pieces, §3 "Customer
 * details state: a customer object and a shown flag"): any screen calls
 * `openCustomerDetails(uid)`; the one modal mounted in the layout shows it.
 */
import { useSyncExternalStore } from 'react';

export interface CustomerDetailsState {
  uid: string | null;
  shown: boolean;
}

let state: CustomerDetailsState = { uid: null, shown: false };
const listeners = new Set<() => void>();

function set(next: CustomerDetailsState) {
  state = next;
  listeners.forEach((l) => l());
}

export function openCustomerDetails(uid: string): void {
  set({ uid, shown: true });
}

export function closeCustomerDetails(): void {
  set({ uid: null, shown: false });
}

export function useCustomerDetailsState(): CustomerDetailsState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
