import type { Connection } from './list-connections.ts';
import { invokeOAuth } from './oauth-function.ts';

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
