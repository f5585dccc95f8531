import { MockProvider } from '../../../../tests/backend/oauth-provider.ts';
import type { TestOrganization, TestUser } from '../../../testing/backend.ts';
import { succeeded } from '../../../lib/errors.ts';

export { MockProvider };

/** Registers `provider` as Slack (or `providerId`) for the organisation, as its master admin. */
export async function configureProvider(
  org: TestOrganization,
  provider: MockProvider,
  providerId = 'slack',
  clientSecret = 'component-test-secret',
): Promise<void> {
  await succeeded(
    org.masterAdmin.client.rpc('save_oauth_config', {
      provider_id: providerId,
      client_id: 'component-test-client',
      client_secret: clientSecret,
      authorize_url: provider.authorizeUrl,
      token_url: provider.tokenUrl,
    }),
  );
}

/**
 * Starts an authorisation through the real `oauth` function; answers its state. No origin is
 * named, so the provider would send the user back to the test backend's site address.
 */
export async function startAuthorizationAs(user: TestUser, providerId = 'slack'): Promise<string> {
  const { data } = await succeeded(
    user.client.functions.invoke<{ state: string }>('oauth', {
      body: { action: 'start', providerId },
    }),
  );
  return data!.state;
}

/** Connects `user` to the provider through the real function; answers the connection id. */
export async function connectAs(user: TestUser, providerId = 'slack'): Promise<string> {
  const state = await startAuthorizationAs(user, providerId);
  const { data } = await succeeded(
    user.client.functions.invoke<{ connection: { id: string } }>('oauth', {
      body: { action: 'complete', providerId, code: 'component-code', state },
    }),
  );
  return data!.connection.id;
}
