import { MutationCache, QueryClient } from '@tanstack/react-query';
import { errorMessage } from './errors.ts';

/** What a mutation tells the one handler of failures (`meta` of `useMutation`). */
export interface MutationMeta extends Record<string, unknown> {
  /**
   * The notice when it fails: the specification's words for what failed, followed by ": " and
   * the error's message ("Failed to delete document: permission denied"), or a function of the
   * error (and the mutation's variables) for a whole sentence. Without it, the error's own
   * message is shown.
   */
  errorMessage?: string | ((error: Error, variables: unknown) => string);
  /**
   * Where it was made shows the failure itself: a form whose refusal is about what was typed
   * (the sign-in form's red box, spec §8, and the other screens before one is inside the app),
   * or a background write whose outcome the screen shows (a connection to reconnect). No
   * notice.
   */
  errorShownInPlace?: true;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: MutationMeta;
  }
}

/** The text of a failed mutation's notice, or null when the failure is shown in place. */
function mutationFailureText(
  error: Error,
  variables: unknown,
  meta: MutationMeta | undefined,
): string | null {
  if (meta?.errorShownInPlace) return null;
  const what = meta?.errorMessage;
  if (typeof what === 'function') return what(error, variables);
  return what ? `${what}: ${errorMessage(error)}` : errorMessage(error);
}

/**
 * The app's one cache of server data (TanStack Query), with defaults chosen for this backend:
 *
 * - Every failed mutation reaches one handler, which hands the mutation's own message
 *   (`meta.errorMessage`) to `notifyFailure`: the app shows it as a notice (src/README.md, "When
 *   something fails"). Screens do not catch failed writes themselves.
 * - No retries. supabase-js already retries reads that failed for a passing reason (a dropped
 *   connection, 503, 520) with back-off; what still fails is a refusal (a 4xx: row-level
 *   security, a bad filter) or a fault that asking again will not mend, so the page says so at
 *   once instead of after another round of attempts. Writes are never repeated on their own.
 * - Data stays fresh for 30 seconds: moving between pages shows what was just loaded without
 *   asking again; after that it is shown at once and refreshed behind it.
 * - Coming back to the tab refreshes what has gone stale: other members of the organisation may
 *   have changed things meanwhile. Queries too large for that (the whole documents list) turn it
 *   off for themselves.
 */
export function createQueryClient(notifyFailure: (message: string) => void): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, variables, _context, mutation) => {
        const text = mutationFailureText(error, variables, mutation.meta);
        if (text) notifyFailure(text);
      },
    }),
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
