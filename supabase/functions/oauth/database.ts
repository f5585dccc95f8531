/**
 * The function's way to the project's database: `@supabase/postgrest-js`, the REST client inside
 * supabase-js, so the requests are exactly the ones supabase-js sends, on Deno and in the
 * embedded backend alike. (supabase-js itself is not used: its constructor needs a WebSocket
 * implementation for realtime, which Node 20 lacks, and this code must stay free of Node
 * imports to run on Deno.)
 */
import { PostgrestClient, type PostgrestError } from '@supabase/postgrest-js';

/** How long one database call may take before the function gives up on it. */
const TIMEOUT_MS = 15_000;

/** A database call failed: a bug or an outage, never the caller's mistake. */
export class DatabaseError extends Error {
  constructor(what: string, error: PostgrestError) {
    super(`${what} failed: ${error.code ? `${error.code} ` : ''}${error.message}`, {
      cause: error,
    });
  }
}

/**
 * A REST client of the project at `supabaseUrl`: with the service-role key as `bearer` it
 * bypasses row-level security; with a user's access token it acts as that user.
 */
export function databaseClient(supabaseUrl: string, apiKey: string, bearer: string) {
  return new PostgrestClient(`${supabaseUrl.replace(/\/+$/, '')}/rest/v1`, {
    headers: { apikey: apiKey, Authorization: `Bearer ${bearer}` },
    timeout: TIMEOUT_MS,
  });
}

export type DatabaseClient = ReturnType<typeof databaseClient>;

/** What every postgrest-js query resolves to. */
interface QueryResult {
  data: unknown;
  error: PostgrestError | null;
}

/** The rows a query answered; a failed query throws a `DatabaseError` naming `what`. */
export async function rowsOf<T>(query: PromiseLike<QueryResult>, what: string): Promise<T[]> {
  const { data, error } = await query;
  if (error) throw new DatabaseError(what, error);
  return (data ?? []) as T[];
}
