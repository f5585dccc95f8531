import { useFeedback } from '../../../components/feedback.tsx';
import { useDisconnectConnection } from '../api/disconnect-connection.ts';
import type { Connection } from '../api/list-connections.ts';
import { useStartAuthorization } from '../api/start-authorization.ts';
import { rememberAuthorization } from '../lib/oauth-storage.ts';
import type { OAuthProvider } from '../providers.ts';

/**
 * Connect and Disconnect on a provider card. `busyProviderId` is the provider whose request is
 * under way (or whose authorisation page is loading), so its buttons can wait.
 */
export function useConnectionActions() {
  const { confirm } = useFeedback();
  const start = useStartAuthorization();
  const disconnect = useDisconnectConnection();

  /** Starts the authorisation and leaves for the provider (spec §4, OAuth flow). */
  const connect = (provider: OAuthProvider) =>
    start.mutate(provider.id, {
      onSuccess: ({ url, state }) => {
        rememberAuthorization(state, provider.id);
        window.location.assign(url);
      },
    });

  const disconnectFrom = async (provider: OAuthProvider, connection: Connection) => {
    const confirmed = await confirm(`Are you sure you want to disconnect ${provider.name}?`, {
      confirmLabel: 'Disconnect',
      destructive: true,
    });
    if (confirmed) disconnect.mutate(connection);
  };

  const busyProviderId =
    start.isPending || start.isSuccess
      ? start.variables
      : disconnect.isPending
        ? disconnect.variables.provider_id
        : null;

  return { busyProviderId, connect, disconnect: disconnectFrom };
}
