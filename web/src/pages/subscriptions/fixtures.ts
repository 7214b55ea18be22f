/** A sample purchased service for the subscription screens' tests (one shape, many tests). */
import type { PurchasedService } from '../../types/subscriptions';

/** Customer c1's active Gold package: 5 consultancy hours, 2 used, for 2026. */
export function purchasedService(over: Partial<PurchasedService> = {}): PurchasedService {
  return {
    id: 11,
    customer_uid: 'c1',
    package_id: 3,
    service: { id: 1, name: 'Consultancy hours' },
    service_plan: null,
    packages: { id: 3, name: 'Gold' },
    limit: null,
    consumed_limit: 0,
    hour: 5,
    consumed_hour: 2,
    hour_less_than_consumed: false,
    advance: false,
    active: true,
    expired: false,
    start_date: '2026-01-01 00:00:00',
    expire_on: '2026-12-31 00:00:00',
    auto_update_date_end: null,
    child: null,
    updated_at: '2026-01-02 10:00:00',
    created_at: '2026-01-01 00:00:00',
    status: 'Active',
    ...over,
  };
}
