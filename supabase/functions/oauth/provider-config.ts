import { messages, OAuthError } from './http.ts';
import type { OAuthProvider } from '../_shared/oauth-providers.ts';
import { findProvider } from '../_shared/oauth-providers.ts';
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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An address the function may send the client secret to or the user to: https, or plain http
 * to this machine only (a local test authorisation server). Anything else would put the
 * secret or the code on the network unencrypted.
 */
export function isAllowedEndpoint(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * The organisation's configuration of a provider: the catalogue's addresses unless the
 * organisation overrode them, and its client id and secret. Refuses with "OAuth not
 * configured for {id}" when there is no client, no secret, or no usable address (BambooHR
 * needs the company's own addresses).
 */
export async function configuredProvider(
  store: OAuthStore,
  organizationId: string,
  providerId: string,
): Promise<ConfiguredProvider> {
  const provider = requireProvider(providerId);
  const config = await store.findConfig(organizationId, providerId);
  const notConfigured = new OAuthError(400, messages.notConfigured(providerId));
  if (!config?.client_id || !config.client_secret) throw notConfigured;
  const authorizeUrl = config.authorize_url || provider.authorizeUrl;
  const tokenUrl = config.token_url || provider.tokenUrl;
  if (!isAllowedEndpoint(authorizeUrl) || !isAllowedEndpoint(tokenUrl)) throw notConfigured;
  if (authorizeUrl.includes('{') || tokenUrl.includes('{')) throw notConfigured;
  return {
    provider,
    authorizeUrl,
    tokenUrl,
    client: { clientId: config.client_id, clientSecret: config.client_secret },
  };
}
