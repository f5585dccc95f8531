/**
 * The auth service's words when too many e-mails were asked for (GoTrue's 429
 * `over_email_send_rate_limit`: the installation's hourly allowance is spent, or this address
 * asked for too many), which a member should not have to decode.
 */
const EMAIL_RATE_LIMIT = 'email rate limit exceeded';

/** What the app says instead. */
export const EMAIL_LIMIT_REACHED =
  'Too many e-mails have been sent in the last hour. Please try again later.';

/**
 * The text to show for anything thrown or returned as an error: its message, or `fallback`
 * when it has none (the specification's "Unknown error", or a default such as "Upload failed").
 * Reads `Error`s and the error objects supabase-js returns (`{ message }`) alike.
 */
export function errorMessage(error: unknown, fallback = 'Unknown error'): string {
  if (typeof error === 'string') return error || fallback;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error as { message?: unknown };
    if (typeof message === 'string' && message.toLowerCase() === EMAIL_RATE_LIMIT) {
      return EMAIL_LIMIT_REACHED;
    }
    if (typeof message === 'string' && message) return message;
  }
  return fallback;
}
