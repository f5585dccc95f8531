/**
 * When a token is refreshed (product-spec §4, §9): when under 5 minutes remain before it
 * expires. Plain code without imports: the function decides with it, and the Connections page
 * uses it to ask the function to refresh the connections that are due.
 */
export const REFRESH_THRESHOLD_MS = 5 * 60 * 1000;

/** True when the token expires in under 5 minutes (or already has); never for no expiry. */
export function needsRefresh(expiresAt: string | null, now: number): boolean {
  if (expiresAt === null) return false;
  return Date.parse(expiresAt) - now < REFRESH_THRESHOLD_MS;
}
