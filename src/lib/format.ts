/**
 * Display formats (product-spec §9): sizes in Bytes/KB/MB/GB with at most 2 decimals, dates as
 * `MMM dd, yyyy` and date-times as `MMM dd, yyyy HH:mm`, in English as the specification
 * writes them. Written out here rather than with a date library: these two patterns are all the
 * dashboard needs, and the library cost more than the rest of the page.
 */

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** `0 Bytes`, `512 Bytes`, `1.5 KB`, `2.25 MB`, `3 GB`; larger sizes stay in GB. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const unit = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = Number.parseFloat((bytes / 1024 ** unit).toFixed(2));
  return `${value} ${SIZE_UNITS[unit]}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

/**
 * A `yyyy-MM-dd` date or an ISO timestamp (as Postgres and supabase-js write them). A plain
 * date is read as that calendar day (not as UTC midnight, which would show the previous day
 * west of Greenwich); anything else is no date.
 */
function toDate(value: string | Date): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const day = CALENDAR_DATE.exec(value);
  if (day) {
    const date = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    // 2025-02-30 is no day (Date would roll it over to March).
    return date.getDate() === Number(day[3]) ? date : null;
  }
  if (!TIMESTAMP.test(value)) return null;
  // `2025-01-05 12:00:00+00` → `2025-01-05T12:00:00+00:00`, which every browser reads.
  const iso = value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (value: number) => String(value).padStart(2, '0');

function dayText(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${pad(date.getDate())}, ${date.getFullYear()}`;
}

/** `Jan 05, 2025`; an empty string for a missing or unreadable date. */
export function formatDate(value: string | Date | null | undefined): string {
  const date = value ? toDate(value) : null;
  return date ? dayText(date) : '';
}

/** `Jan 05, 2025 14:30`; an empty string for a missing or unreadable date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = value ? toDate(value) : null;
  return date ? `${dayText(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}` : '';
}
