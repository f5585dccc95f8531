import { format } from 'date-fns';

/** The connected date of a card (spec §9: MMM dd, yyyy). */
export function formatConnectedDate(iso: string): string {
  return format(new Date(iso), 'MMM dd, yyyy');
}

/** A token's expiry (spec §2, §9: MMM dd, yyyy HH:mm). */
export function formatExpiry(iso: string): string {
  return format(new Date(iso), 'MMM dd, yyyy HH:mm');
}

/** The message of anything thrown, or `fallback` when it has none. */
export function errorText(error: unknown, fallback = 'Unknown error'): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
