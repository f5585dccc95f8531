import { format, isValid, parseISO } from 'date-fns';

/**
 * Display formats (product-spec §9): sizes in Bytes/KB/MB/GB with at most 2 decimals, dates as
 * `MMM dd, yyyy` and date-times as `MMM dd, yyyy HH:mm`.
 */

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** `0 Bytes`, `512 Bytes`, `1.5 KB`, `2.25 MB`, `3 GB`; larger sizes stay in GB. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const unit = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = Number.parseFloat((bytes / 1024 ** unit).toFixed(2));
  return `${value} ${SIZE_UNITS[unit]}`;
}

/**
 * A `yyyy-MM-dd` date or an ISO timestamp. A plain date is read as that calendar day (not as
 * UTC midnight, which would show the previous day west of Greenwich).
 */
function toDate(value: string | Date): Date {
  return typeof value === 'string' ? parseISO(value) : value;
}

/** `Jan 05, 2025`; an empty string for a missing or unreadable date. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = toDate(value);
  return isValid(date) ? format(date, 'MMM dd, yyyy') : '';
}

/** `Jan 05, 2025 14:30`; an empty string for a missing or unreadable date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = toDate(value);
  return isValid(date) ? format(date, 'MMM dd, yyyy HH:mm') : '';
}
