/** Display rules of the subscriptions table (spec §2, §4, §9). */
import type { SessionUser } from '../../types/session';
import { formatDecimal, langOf, parseDecimal } from '../../format';
import { serviceName } from '../../components/names';
export { formatSek } from '../../format';
import type { PurchasedService, SubscriptionStatus } from '../../types/subscriptions';

/** The hour-based service (spec §2). */
export const CONSULTANCY_SERVICE_ID = 1;

/** Hours in the active language, at most two decimals: 2.5 → '2,5' (sv), '2.5' (en). */
export function formatHours(n: number): string {
  return formatDecimal(n);
}

/** What is left of a subscription: hours for the hour-based service, uses otherwise (null: no limit). */
export function remaining(row: PurchasedService): { left: number; total: number; percentUsed: number } | null {
  const hours = row.service.id === CONSULTANCY_SERVICE_ID;
  const total = hours ? row.hour : row.limit;
  const used = hours ? row.consumed_hour : row.consumed_limit;
  if (total == null || total <= 0) return null;
  const left = Math.max(0, Math.round((total - used) * 100) / 100);
  return { left, total, percentUsed: Math.min(100, Math.round((used / total) * 100)) };
}

/** An advance purchase waiting for the current subscription to end (its start date is still ahead). */
export function startsLater(row: PurchasedService, now = new Date()): boolean {
  return !!row.advance && !!row.start_date && new Date(row.start_date).getTime() > now.getTime() && !row.expired;
}

/** 'Hours limit' column: '10hr' (sv '10 tim') for service 1, the use limit otherwise. */
export function limitText(row: PurchasedService): string {
  if (row.service.id === CONSULTANCY_SERVICE_ID) return langOf() === 'en' ? `${formatHours(row.hour)}hr` : `${formatHours(row.hour)} tim`;
  return row.limit == null ? '-' : String(row.limit);
}

/** 'Consumed hours' column: '2h/5h' (sv '2/5 tim') for service 1, '1/3' uses otherwise. */
export function consumedText(row: PurchasedService): string {
  if (row.service.id === CONSULTANCY_SERVICE_ID) {
    const used = formatHours(row.consumed_hour);
    const total = formatHours(row.hour);
    return langOf() === 'en' ? `${used}h/${total}h` : `${used}/${total} tim`;
  }
  return row.limit == null ? String(row.consumed_limit) : `${row.consumed_limit}/${row.limit}`;
}

/** Status chip colours (spec §4: Active green, Inactive purple, Consumed yellow). */
export const STATUS_COLORS: Record<SubscriptionStatus, string> = {
  Active: 'green',
  Inactive: 'purple',
  Consumed: 'gold',
  Expired: 'red',
  Deactivated: 'default',
};

/** The plan's, package's or service's name (also the CSV file name); a bare service in the reader's language. */
export function rowName(row: PurchasedService): string {
  return row.service_plan?.name ?? row.packages?.name ?? serviceName(row.service.id, row.service.name);
}

/** Spec §6: Options, CSV and the last update date column for user_type 1, 2 or unset. */
export function showsRowActions(user: Pick<SessionUser, 'user_type'> | null | undefined): boolean {
  const t = user?.user_type;
  return t == null || t === 1 || t === 2;
}

/** Admin and sales persons change rows; lawyers see the menu without changes. */
export function changesRows(user: Pick<SessionUser, 'is_staff' | 'user_type'> | null | undefined): boolean {
  return !!user?.is_staff || Number(user?.user_type) === 2;
}

/** Spec §6: external lawyers do not see subscriptions. */
export function isExternalLawyer(user: Pick<SessionUser, 'user_type' | 'user_sub_type'> | null | undefined): boolean {
  return Number(user?.user_type) === 1 && String(user?.user_sub_type ?? '').toLowerCase() === 'external';
}

/** Hours as typed: '2,5' or '2.5', at most two decimals. Null when not a number. */
export function parseHours(text: string): number | null {
  return parseDecimal(text);
}
