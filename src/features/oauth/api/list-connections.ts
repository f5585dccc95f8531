import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  needsRefresh,
  REFRESH_THRESHOLD_MS,
} from '../../../../supabase/functions/_shared/oauth-refresh-policy.ts';
import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { oauthKeys } from './query-keys.ts';

/** A connection as the browser may see it: no tokens (those stay on the server). */
export type Connection = Pick<
  Tables<'oauth_connections'>,
  'id' | 'provider_id' | 'expires_at' | 'scopes' | 'is_active' | 'needs_reconnect' | 'created_at'
>;

/** The signed-in user's active connections (row-level security limits them to their own). */
export async function listConnections(userId: string): Promise<Connection[]> {
  const { data, error } = await supabase()
    .from('oauth_connections')
    .select('id, provider_id, expires_at, scopes, is_active, needs_reconnect, created_at')
    .eq('user_id', userId)
    .eq('is_active', true);
  if (error) {
    console.error('Failed to fetch connections', error);
    throw new Error('Failed to fetch connections');
  }
  return data;
}

/** The connections whose token should be refreshed now (under 5 minutes left). */
export function dueForRefresh(connections: readonly Connection[], now: number): Connection[] {
  return connections.filter((c) => !c.needs_reconnect && needsRefresh(c.expires_at, now));
}

// Waits longer than this are not worth keeping (and timers overflow past ~24.8 days).
const MAX_WAIT_MS = 24 * 60 * 60 * 1000;

/** How long until the next connection becomes due for a refresh, or false for not today. */
function untilNextDue(connections: readonly Connection[] | undefined, now: number) {
  const waits = (connections ?? [])
    .filter((c) => c.expires_at && !c.needs_reconnect)
    .map((c) => Date.parse(c.expires_at!) - REFRESH_THRESHOLD_MS - now);
  const next = Math.min(...waits);
  if (!Number.isFinite(next) || next > MAX_WAIT_MS) return false;
  return Math.max(next, 0) + 1000;
}

/**
 * The list, read again while the page is open when the next connection becomes due for a
 * refresh (which `useConnections` then asks the server for).
 */
export const connectionsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: oauthKeys.activeConnections(userId),
    queryFn: () => listConnections(userId),
    refetchInterval: (query) => untilNextDue(query.state.data, Date.now()),
  });

/** The user's connections; nothing is asked without a user. */
export const useConnectionList = (userId: string | null) =>
  useQuery({ ...connectionsQueryOptions(userId ?? ''), enabled: userId !== null });
