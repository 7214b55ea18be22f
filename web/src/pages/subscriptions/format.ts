/** Display rules of the subscriptions table (spec §2, §4, §9). */
import type { SessionUser } from '../../types/session';
import { CURRENCY, NUMBER_LOCALE } from '../../config/constants';
import type { PurchasedService, SubscriptionStatus } from '../../types/subscriptions';

/** The hour-based service (spec §2). */
export const CONSULTANCY_SERVICE_ID = 1;

/** Hours with a comma decimal, at most two decimals: 2.5 → '2,5'. */
export function formatHours(n: number): string {
  return new Intl.NumberFormat(NUMBER_LOCALE, { maximumFractionDigits: 2, useGrouping: false }).format(n);
}

/** SEK in the sv-SE format. */
export function formatSek(n: number): string {
  return new Intl.NumberFormat(NUMBER_LOCALE, { style: 'currency', currency: CURRENCY, minimumFractionDigits: 0, maximumFractionDigits: 2 }).format(n);
}

/** 'Hours limit' column: '10hr' for service 1, the use limit otherwise. */
export function limitText(row: PurchasedService): string {
  if (row.service.id === CONSULTANCY_SERVICE_ID) return `${formatHours(row.hour)}hr`;
  return row.limit == null ? '-' : String(row.limit);
}

/** 'Consumed hours' column: '2h/5h' for service 1, '1/3' uses otherwise. */
export function consumedText(row: PurchasedService): string {
  if (row.service.id === CONSULTANCY_SERVICE_ID) return `${formatHours(row.consumed_hour)}h/${formatHours(row.hour)}h`;
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

/** The plan's, package's or service's name (also the CSV file name). */
export function rowName(row: PurchasedService): string {
  return row.service_plan?.name ?? row.packages?.name ?? row.service.name;
}

/** Spec §6: Options, CSV and the last update date column for user_type 1, 2 or unset. */
export function showsRowActions(user: Pick<SessionUser, 'user_type'> | null | undefined): boolean {
  const t = user?.user_type;
  return t == null || t === '' || Number(t) === 1 || Number(t) === 2;
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
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  return Number(t);
}
