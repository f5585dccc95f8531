import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';

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

/** Disconnects one of the user's connections: it becomes inactive and its tokens are deleted. */
export async function disconnectConnection(connectionId: string): Promise<void> {
  const { error } = await supabase().rpc('disconnect_oauth_connection', {
    connection_id: connectionId,
  });
  if (error) throw new Error(error.message || 'Failed to disconnect provider');
}
