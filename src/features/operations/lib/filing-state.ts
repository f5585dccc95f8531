import { differenceInCalendarDays, isValid, parseISO } from 'date-fns';

/** The corporate filing state (product-spec §4), from the next due date. */
export type FilingState = 'unknown' | 'overdue' | 'due-soon' | 'current';

/** Days ahead in which a due date counts as due soon. */
export const FILING_DUE_SOON_DAYS = 30;

/**
 * unknown without a date; overdue when the date is before today; due-soon when it is today or
 * within the next 30 days; current otherwise. Calendar days in the viewer's time zone, so a
 * filing due today is due soon, not overdue.
 */
export function filingState(nextDueDate: string | null | undefined, now = new Date()): FilingState {
  if (!nextDueDate) return 'unknown';
  const due = parseISO(nextDueDate);
  if (!isValid(due)) return 'unknown';
  const days = differenceInCalendarDays(due, now);
  if (days < 0) return 'overdue';
  if (days <= FILING_DUE_SOON_DAYS) return 'due-soon';
  return 'current';
}
