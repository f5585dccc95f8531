import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { startAuthorization } from '../api/authorization.ts';
import { disconnectConnection, type Connection } from '../api/connections.ts';
import { OAuthFunctionError } from '../api/oauth-function.ts';
import { errorText } from '../lib/format.ts';
import { rememberAuthorization } from '../lib/oauth-storage.ts';
import type { OAuthProvider } from '../providers.ts';

/**
 * Connect and Disconnect on a provider card. `busyProviderId` is the provider whose request is
 * under way, so its buttons can wait.
 */
export function useConnectionActions(reload: () => void) {
  const { alert, confirm } = useFeedback();
  const [busyProviderId, setBusyProviderId] = useState<string | null>(null);

  /** Starts the authorisation and leaves for the provider (spec §4, OAuth flow). */
  const connect = async (provider: OAuthProvider) => {
    setBusyProviderId(provider.id);
    try {
      const { url, state } = await startAuthorization(provider.id, window.location.origin);
      rememberAuthorization(state, provider.id);
      window.location.assign(url);
    } catch (error) {
      setBusyProviderId(null);
      await alert(error instanceof OAuthFunctionError ? error.message : 'Failed to initiate OAuth');
    }
  };

  const disconnect = async (provider: OAuthProvider, connection: Connection) => {
    if (!(await confirm(`Are you sure you want to disconnect ${provider.name}?`))) return;
    setBusyProviderId(provider.id);
    try {
      await disconnectConnection(connection.id);
      reload();
    } catch (error) {
      await alert(`Failed to disconnect: ${errorText(error)}`);
    } finally {
      setBusyProviderId(null);
    }
  };

  return { busyProviderId, connect, disconnect };
}
