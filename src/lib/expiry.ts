/**
 * Expiry classification of a document (product-spec §4, §9).
 *
 * Expiry dates are calendar dates (`yyyy-MM-dd`), so they are compared as dates, not instants:
 * a document expiring today is not overdue yet. "Today" is the UTC calendar date, the same day
 * the `document_stats` rpc uses, so a badge and the counter above it always agree.
 */

/** The expiring-soon window in days (spec §9). */
export const EXPIRING_SOON_DAYS = 30;

export type ExpiryState = 'overdue' | 'soon' | 'ok';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC calendar date of `now` as `yyyy-MM-dd`. */
export function utcDateString(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Whole days from `today` to `date` (both `yyyy-MM-dd`); negative when `date` is earlier. */
export function daysUntil(date: string, today: string): number {
  return Math.round(
    (Date.parse(`${date.slice(0, 10)}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS,
  );
}

/**
 * overdue: before today; soon: today up to and including 30 days ahead; ok: later than that.
 * Returns null for a document without an expiry date.
 */
export function classifyExpiry(
  expiryDate: string | null | undefined,
  today: string = utcDateString(),
): ExpiryState | null {
  if (!expiryDate) return null;
  const days = daysUntil(expiryDate, today);
  if (Number.isNaN(days)) return null;
  if (days < 0) return 'overdue';
  if (days <= EXPIRING_SOON_DAYS) return 'soon';
  return 'ok';
}
