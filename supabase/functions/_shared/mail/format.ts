import { format, isValid, parseISO } from 'date-fns';

/** `Jan 05, 2025` (the specification's date format) for a `yyyy-MM-dd` date or a timestamp. */
export function formatMailDate(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, 'MMM dd, yyyy') : value;
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** `512 Bytes`, `1.5 KB`, `2.25 MB` (the specification's size format). */
export function formatMailSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const unit = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  return `${Number.parseFloat((bytes / 1024 ** unit).toFixed(2))} ${SIZE_UNITS[unit]}`;
}

/** `1 document`, `3 documents`. */
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
