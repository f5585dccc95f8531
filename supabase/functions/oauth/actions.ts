/**
 * The actions of the `oauth` function. Each receives the authenticated caller and the
 * validated request body and returns what the browser may see: never a client secret, never a
 * refresh token, an access token only from `token`, only of the caller's own connection.
 */
import type { Caller } from './caller.ts';
import type { DatabaseClient } from './database.ts';
import { DatabaseError } from './database.ts';
import type { EndpointPolicy } from './endpoint-policy.ts';
import { randomState, sha256Hex } from './crypto.ts';
import { messages, OAuthError } from './http.ts';
import { configuredProvider, requireProvider } from './provider-config.ts';
import { redirectUriFor } from '../_shared/oauth-providers.ts';
import type { TokenRefresher } from './refresh.ts';
import type { OAuthStore } from './store.ts';
import { publicConnection } from './store.ts';
import type { TokenCipher } from './token-cipher.ts';
import { exchangeCode, TokenEndpointError } from './token-endpoint.ts';

/** How long a started authorisation may take before its state is refused. */
export const STATE_TTL_MS = 10 * 60 * 1000;
/** Unfinished authorisations one user may have at once. */
export const MAX_LIVE_STATES = 20;

export interface ActionContext {
  caller: Caller;
  store: OAuthStore;
  policy: EndpointPolicy;
  cipher: TokenCipher;
  refresher: TokenRefresher;
}

/**
 * `start`: binds a new random state to the caller, the provider and the organisation for 10
 * minutes and returns the provider's authorisation address with the query of spec §7. Only the
 * state's hash is stored. `appAddress` is a configured address of the app (app-address.ts),
 * never one the browser chose.
 */
export async function startAuthorization(
  { caller, store, policy }: ActionContext,
  providerId: string,
  appAddress: string,
) {
  const configured = await configuredProvider(store, policy, caller.organizationId, providerId);
  const redirectUri = redirectUriFor(appAddress, providerId);
  const state = randomState();
  const now = new Date();
  await store.deleteStaleStates(now);
  // Each start stores a row: a caller cannot pile up more than a handful at a time.
  if ((await store.countLiveStates(caller.userId, now, MAX_LIVE_STATES)) >= MAX_LIVE_STATES) {
    throw new OAuthError(429, messages.tooManyStarts);
  }
  await store.createState({
    state_hash: await sha256Hex(state),
    user_id: caller.userId,
    organization_id: caller.organizationId,
    provider_id: providerId,
    redirect_uri: redirectUri,
    expires_at: new Date(now.getTime() + STATE_TTL_MS).toISOString(),
  });
  const url = new URL(configured.authorizeUrl);
  url.searchParams.set('client_id', configured.client.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', configured.provider.scopes.join(' '));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  url.searchParams.set('state', state);
  return { url: url.toString(), state };
}

/**
 * `complete`: spends the state (once, and only the caller's own, for this provider and
 * organisation, before it expires), exchanges the code with the client secret, and stores the
 * connection with its tokens encrypted.
 */
export async function completeAuthorization(
  { caller, store, policy, cipher }: ActionContext,
  providerId: string,
  code: string,
  state: string,
) {
  const provider = requireProvider(providerId);
  const row = await store.consumeState(await sha256Hex(state), caller.userId);
  if (
    !row ||
    row.provider_id !== providerId ||
    row.organization_id !== caller.organizationId ||
    Date.parse(row.expires_at) <= Date.now() ||
    !row.redirect_uri
  ) {
    throw new OAuthError(400, messages.invalidState);
  }
  const configured = await configuredProvider(store, policy, caller.organizationId, providerId);
  let tokens;
  try {
    tokens = await exchangeCode(configured.tokenUrl, configured.client, code, row.redirect_uri);
  } catch (error) {
    if (error instanceof TokenEndpointError) {
      throw new OAuthError(502, messages.exchangeFailed(error.reason));
    }
    throw error;
  }
  const expiresAt =
    tokens.expiresIn === null ? null : new Date(Date.now() + tokens.expiresIn * 1000).toISOString();
  const connection = await store.upsertInactiveConnection({
    provider_id: provider.id,
    user_id: caller.userId,
    organization_id: caller.organizationId,
    expires_at: expiresAt,
    scopes: provider.scopes,
  });
  const sealed = await cipher.seal(connection.id, tokens.accessToken, tokens.refreshToken);
  await store.upsertTokens({
    connection_id: connection.id,
    access_token: sealed.access,
    refresh_token: sealed.refresh,
  });
  return { connection: publicConnection(await store.activateConnection(connection.id)) };
}

async function ownActiveConnection({ caller, store }: ActionContext, providerId: string) {
  const provider = requireProvider(providerId);
  const connection = await store.findActiveConnection(
    caller.userId,
    caller.organizationId,
    providerId,
  );
  if (!connection) throw new OAuthError(404, messages.notConnected(provider.name));
  return connection;
}

/** `token`: a valid access token of the caller's own connection, refreshed first when due. */
export async function accessToken(context: ActionContext, providerId: string) {
  const connection = await ownActiveConnection(context, providerId);
  const fresh = await context.refresher.fresh(connection);
  return {
    access_token: fresh.accessToken,
    token_type: 'Bearer',
    expires_at: fresh.connection.expires_at,
  };
}

/**
 * `status`: makes sure the caller's connection is usable, refreshing it when under 5 minutes
 * remain, and returns the connection without any token. The Connections page uses it to keep
 * connections fresh without handling tokens itself.
 */
export async function connectionStatus(context: ActionContext, providerId: string) {
  const connection = await ownActiveConnection(context, providerId);
  const fresh = await context.refresher.fresh(connection);
  return { connection: publicConnection(fresh.connection) };
}

/** A master admin's settings for a provider, as the settings dialog sends them. */
export interface ProviderConfigInput {
  providerId: string;
  clientId: string | null;
  /** Null or blank keeps the stored secret: the secret is write-only. */
  clientSecret: string | null;
  /** Null or blank: the catalogue's address. */
  authorizeUrl: string | null;
  tokenUrl: string | null;
}

/**
 * `configure`: saves the organisation's client and address overrides for a catalogue
 * provider, refusing addresses the policy does not allow before anything is stored. The save
 * itself is the rpc `save_oauth_config`, called as the caller (`asCaller` carries their
 * token), so the database still decides who may configure what (master admins, their own
 * organisation) and checks the values; its refusals reach the caller with its own text.
 */
export async function saveProviderConfig(
  { policy }: ActionContext,
  asCaller: DatabaseClient,
  input: ProviderConfigInput,
) {
  const provider = requireProvider(input.providerId);
  const authorizeUrl = input.authorizeUrl?.trim() || null;
  const tokenUrl = input.tokenUrl?.trim() || null;
  const problem =
    (authorizeUrl && policy.problem(provider, 'Authorization URL', authorizeUrl)) ||
    (tokenUrl && policy.problem(provider, 'Token URL', tokenUrl));
  if (problem) throw new OAuthError(400, problem);
  const { error } = await asCaller.rpc('save_oauth_config', {
    provider_id: provider.id,
    client_id: input.clientId,
    client_secret: input.clientSecret,
    authorize_url: authorizeUrl,
    token_url: tokenUrl,
  });
  // A refusal raised by the function itself (`raise exception`: SQLSTATE P0001) is the
  // caller's; anything else is a fault.
  if (error?.code === 'P0001') throw new OAuthError(400, error.message);
  if (error) throw new DatabaseError('saving a provider configuration', error);
  return { saved: true };
}
