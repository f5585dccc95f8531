import { format } from 'date-fns';

/** Dates on the User Management page read like "Mar 05, 2026" (spec §2: MMM dd, yyyy). */
export function formatDate(value: string): string {
  return format(new Date(value), 'MMM dd, yyyy');
}

/** Unknown error stands in when a failure carries no message (spec §8). */
export function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error';
}

/** Invited By: the inviter's full name, else their e-mail, else Unknown (spec §2). */
export function inviterName(
  profile: { full_name: string | null; email: string | null } | null,
): string {
  return profile?.full_name?.trim() || profile?.email?.trim() || 'Unknown';
}
