/** Meeting times are shown and entered in Swedish time (Europe/Stockholm), whatever the browser's zone. */
import type { Dayjs } from 'dayjs';
import dayjs from '../../../i18n/dates';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

export const ZONE = 'Europe/Stockholm';

/** `YYYY-MM-DD HH:mm` in Stockholm (spec §9 display format). */
export function stockholm(iso: string): string {
  return dayjs(iso).tz(ZONE).format('YYYY-MM-DD HH:mm');
}

/** The instant of a wall-clock time picked in Stockholm (the picker's fields, read as Stockholm time), RFC 3339 UTC. */
export function fromStockholm(picked: Dayjs): string {
  return dayjs.tz(picked.second(0).millisecond(0).format('YYYY-MM-DDTHH:mm:ss'), ZONE).utc().format('YYYY-MM-DDTHH:mm:ss[Z]');
}

/** Now as a Stockholm wall clock (what the picker's bounds compare against). */
export function nowInStockholm(): Dayjs {
  return dayjs(dayjs().tz(ZONE).format('YYYY-MM-DDTHH:mm:ss'));
}

export function isUpcoming(start: string, minutes: number, now = Date.now()): boolean {
  return new Date(start).getTime() + minutes * 60_000 > now;
}
