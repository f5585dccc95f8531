import type { OAuthProvider } from '../_shared/oauth-providers.ts';
import { findProvider } from '../_shared/oauth-providers.ts';
import type { EndpointPolicy } from './endpoint-policy.ts';
import { messages, OAuthError } from './http.ts';
import type { OAuthStore } from './store.ts';
import type { ClientCredentials } from './token-endpoint.ts';

/** A provider as one organisation uses it: its addresses and its OAuth client. */
export interface ConfiguredProvider {
  provider: OAuthProvider;
  authorizeUrl: string;
  tokenUrl: string;
  client: ClientCredentials;
}

/** The catalogue entry, or 404 with the specification's text. */
export function requireProvider(providerId: string): OAuthProvider {
  const provider = findProvider(providerId);
  if (!provider) throw new OAuthError(404, messages.providerNotFound(providerId));
  return provider;
}

/**
 * The organisation's configuration of a provider: the catalogue's addresses unless the
 * organisation overrode them, and its client id and secret. Refuses with "OAuth not
 * configured for {id}" when there is no client, no secret, or no usable address (BambooHR
 * needs the company's own addresses), and says why when a saved address is one the `policy`
 * does not allow: the secret is never sent there, whatever the database holds.
 */
export async function configuredProvider(
  store: OAuthStore,
  policy: EndpointPolicy,
  organizationId: string,
  providerId: string,
): Promise<ConfiguredProvider> {
  const provider = requireProvider(providerId);
  const config = await store.findConfig(organizationId, providerId);
  const notConfigured = messages.notConfigured(providerId);
  if (!config?.client_id || !config.client_secret) throw new OAuthError(400, notConfigured);
  const authorizeUrl = config.authorize_url || provider.authorizeUrl;
  const tokenUrl = config.token_url || provider.tokenUrl;
  // A catalogue address with a placeholder the organisation has not replaced (BambooHR).
  if (authorizeUrl.includes('{') || tokenUrl.includes('{')) {
    throw new OAuthError(400, notConfigured);
  }
  const problem =
    policy.problem(provider, 'Authorization URL', authorizeUrl) ??
    policy.problem(provider, 'Token URL', tokenUrl);
  if (problem) throw new OAuthError(400, `${notConfigured} (${problem})`);
  return {
    provider,
    authorizeUrl,
    tokenUrl,
    client: { clientId: config.client_id, clientSecret: config.client_secret },
  };
}
