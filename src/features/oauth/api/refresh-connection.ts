import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import type { Connection } from './list-connections.ts';
import { invokeOAuth } from './oauth-function.ts';
import { oauthKeys } from './query-keys.ts';

/**
 * Asks the function to make the connection usable, refreshing its token on the server when
 * under 5 minutes remain. No token reaches the browser.
 */
export async function refreshConnection(providerId: string): Promise<Connection> {
  const { connection } = await invokeOAuth<{ connection: Connection }>({
    action: 'status',
    providerId,
  });
  return connection;
}

/**
 * Refreshing a connection, in the background. Whatever the outcome the list is read again: a
 * failed refresh marks the connection for reconnection on the server, and the list shows it.
 */
export function useRefreshConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: oauthKeys.refresh,
    meta: { errorShownInPlace: true },
    mutationFn: (connection: Connection) => refreshConnection(connection.provider_id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: oauthKeys.connections }),
  });
}

/** The ids of the connections being refreshed now. */
export function useRefreshingConnectionIds(): ReadonlySet<string> {
  const ids = useMutationState({
    filters: { mutationKey: oauthKeys.refresh, status: 'pending' },
    select: (mutation) => (mutation.state.variables as Connection).id,
  });
  return new Set(ids);
}
