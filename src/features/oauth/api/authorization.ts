import type { Connection } from './connections.ts';
import { invokeOAuth } from './oauth-function.ts';

/**
 * Starts connecting the signed-in user to a provider: the function binds a new state to them
 * and answers the provider's authorisation address (spec §7 query).
 */
export function startAuthorization(
  providerId: string,
  origin: string,
): Promise<{ url: string; state: string }> {
  return invokeOAuth({ action: 'start', providerId, origin });
}

/** Finishes the connection: the function checks the state and exchanges the code. */
export async function completeAuthorization(
  providerId: string,
  code: string,
  state: string,
): Promise<Connection> {
  const { connection } = await invokeOAuth<{ connection: Connection }>({
    action: 'complete',
    providerId,
    code,
    state,
  });
  return connection;
}

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
