/** The customer's `customer/{uid}/` answer, kept in the persisted store under `services`. */
import { useEffect } from 'react';
import { customerServices } from '../../api/subscriptions';
import type { PurchasedService } from '../../types/subscriptions';
import type { SessionUser } from '../../types/session';
import { getState, setState, useSession } from '../../store/session';

/** The customer uid a customer (its own uid) or a contact (its customer_id) works for. */
export function customerUidOf(user: SessionUser | null | undefined): string | null {
  if (!user) return null;
  if (Number(user.user_type) === 4) return user.customer_id != null ? String(user.customer_id) : null;
  return user.uid ?? null;
}

export async function loadCustomerServices(uid: string): Promise<void> {
  const res = await customerServices(uid);
  setState((s) => ({
    services: {
      ...s.services,
      purchased_services: res.purchased_services,
      bisnode_account_active: res.bisnode_account_active,
      bisnode_account: res.bisnode_account,
      customer_type: res.customer_type ?? null,
    },
  }));
}

/** Loads the services once on entering the customer or contact area, when `enabled` (errors are notified by the client). */
export function useLoadCustomerServices(enabled = true): void {
  const user = useSession((s) => s.user);
  const uid = enabled ? customerUidOf(user) : null;
  useEffect(() => {
    if (uid && getState().auth) void loadCustomerServices(uid).catch(() => undefined);
  }, [uid]);
}

/** Spec §5 service access: the service is among the purchased (current) services. */
export function hasService(rows: PurchasedService[] | undefined, serviceId: number): boolean {
  return !!rows?.some((r) => r.service.id === serviceId && !r.expired);
}
