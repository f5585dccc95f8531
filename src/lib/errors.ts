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

/** What every supabase-js call answers: its data, or the error that refused it. */
interface SupabaseAnswer {
  error: { message: string } | null;
}

/**
 * The answer of a supabase-js call (PostgREST, storage, auth, functions) once it succeeded,
 * `{ data, count, … }`, or its error thrown: an `Error` as it is (auth, storage and functions
 * errors are, with their codes), otherwise a new `Error` with the server's message, or
 * `fallback` when it has none. The one way the app turns `{ data, error }` into an exception:
 *
 * ```ts
 * const { data } = await succeeded(supabase().rpc('list_trash'), 'Failed to load the trash');
 * ```
 */
export async function succeeded<Answer extends SupabaseAnswer>(
  request: PromiseLike<Answer>,
  fallback = 'Unknown error',
): Promise<Extract<Answer, { error: null }>> {
  const answer = await request;
  const { error } = answer;
  if (error) {
    throw error instanceof Error && error.message ? error : new Error(error.message || fallback);
  }
  return answer as Extract<Answer, { error: null }>;
}
