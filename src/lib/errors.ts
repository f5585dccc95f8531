/**
 * The text to show for anything thrown or returned as an error: its message, or `fallback`
 * when it has none (the specification's "Unknown error", or a default such as "Upload failed").
 * Reads `Error`s and the error objects supabase-js returns (`{ message }`) alike.
 */
export function errorMessage(error: unknown, fallback = 'Unknown error'): string {
  if (typeof error === 'string') return error || fallback;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error as { message?: unknown };
    if (typeof message === 'string' && message) return message;
  }
  return fallback;
}
