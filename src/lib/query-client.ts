import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one cache of server data (TanStack Query), with defaults chosen for this backend:
 *
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
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
