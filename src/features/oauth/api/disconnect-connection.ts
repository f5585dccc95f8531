import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { Connection } from './list-connections.ts';
import { oauthKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Disconnects one of the user's connections: it becomes inactive and its tokens are deleted. */
export async function disconnectConnection(connectionId: string): Promise<void> {
  await succeeded(
    supabase().rpc('disconnect_oauth_connection', {
      connection_id: connectionId,
    }),
    'Failed to disconnect provider',
  );
}

/** Disconnecting (the connection is the variable, so its card can wait); the list reloads. */
export function useDisconnectConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (connection: Connection) => disconnectConnection(connection.id),
    meta: { errorMessage: 'Failed to disconnect' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oauthKeys.connections }),
  });
}
