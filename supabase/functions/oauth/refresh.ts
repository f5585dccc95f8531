/**
 * Keeping a connection's access token fresh (product-spec §4, §9): refreshed on the server
 * when under 5 minutes remain, one refresh per connection at a time.
 *
 * Two guards, because a refresh token is often single-use and a second concurrent refresh
 * would fail or even revoke the connection:
 * - in this instance, concurrent requests for one connection share one promise;
 * - across instances, the refresher holds a lease in `oauth_connection_tokens.refreshing_until`,
 *   taken with a conditional update. It stores the new tokens, then the new expiry, and only
 *   then gives the lease back, so whoever gets the lease next sees a consistent connection.
 *   Others wait for the lease to go and read the result.
 */
import { TokenCipherError } from './crypto.ts';
import type { EndpointPolicy } from './endpoint-policy.ts';
import { messages, OAuthError } from './http.ts';
import { configuredProvider } from './provider-config.ts';
import { needsRefresh } from '../_shared/oauth-refresh-policy.ts';
import type { ConnectionRow, OAuthStore, TokenRow } from './store.ts';
import type { TokenCipher } from './token-cipher.ts';
import { refreshAccessToken, TokenEndpointError } from './token-endpoint.ts';

/** Longer than a refresh can take (token endpoint timeout 15 s plus the writes). */
const LEASE_MS = 30_000;
const POLL_MS = 150;

/** A connection with a usable access token. */
export interface FreshConnection {
  connection: ConnectionRow;
  accessToken: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class TokenRefresher {
  /** In-flight refreshes of this instance, by connection id. */
  private readonly inFlight = new Map<string, Promise<FreshConnection>>();

  constructor(
    private readonly store: OAuthStore,
    private readonly policy: EndpointPolicy,
    private readonly cipher: TokenCipher,
    /** The provider's display name, for messages. */
    private readonly providerName: (providerId: string) => string,
  ) {}

  /** The connection with a valid access token, refreshing it first when it is due. */
  async fresh(connection: ConnectionRow): Promise<FreshConnection> {
    const current = await this.readUsable(connection);
    if (current) return current;
    let pending = this.inFlight.get(connection.id);
    if (!pending) {
      pending = this.refreshOnce(connection).finally(() => this.inFlight.delete(connection.id));
      this.inFlight.set(connection.id, pending);
    }
    return pending;
  }

  /** The stored access token when no refresh is due; undefined when one is. */
  private async readUsable(connection: ConnectionRow): Promise<FreshConnection | undefined> {
    if (connection.needs_reconnect) throw this.needsReconnect(connection);
    const tokens = await this.store.findTokens(connection.id);
    if (!tokens) throw this.needsReconnect(connection);
    if (needsRefresh(connection.expires_at, Date.now())) return undefined;
    const accessToken = await this.open(connection, () =>
      this.cipher.openAccess(connection.id, tokens),
    );
    return { connection, accessToken };
  }

  private async refreshOnce(initial: ConnectionRow): Promise<FreshConnection> {
    const deadline = Date.now() + LEASE_MS + 5_000;
    for (;;) {
      const now = new Date();
      const lease = new Date(now.getTime() + LEASE_MS);
      if (await this.store.claimRefreshLease(initial.id, now, lease)) {
        return this.refreshHoldingLease(initial, lease);
      }
      // Another instance is refreshing: wait for it, then use what it stored.
      if (Date.now() > deadline) throw new OAuthError(503, messages.refreshFailed('Timeout'));
      await sleep(POLL_MS);
      const usable = await this.readUsable(await this.reread(initial));
      if (usable) return usable;
    }
  }

  private async refreshHoldingLease(initial: ConnectionRow, lease: Date): Promise<FreshConnection> {
    let released = false;
    try {
      // Read again under the lease: a refresh that finished just before we took it is visible
      // now in full and must not be repeated.
      const connection = await this.reread(initial);
      const usable = await this.readUsable(connection);
      if (usable) return usable;
      const tokens = await this.store.findTokens(connection.id);
      if (!tokens) throw this.needsReconnect(connection);
      const refreshed = await this.callProvider(connection, tokens, lease);
      released = true; // callProvider gave the lease back after storing the new tokens
      return refreshed;
    } finally {
      // Conditional on our lease value: a no-op when the tokens are gone or were taken over.
      if (!released) await this.store.releaseRefreshLease(initial.id, lease);
    }
  }

  private async callProvider(
    connection: ConnectionRow,
    tokens: TokenRow,
    lease: Date,
  ): Promise<FreshConnection> {
    const provider = await configuredProvider(
      this.store,
      this.policy,
      connection.organization_id,
      connection.provider_id,
    );
    const refreshToken = await this.open(connection, () =>
      this.cipher.openRefresh(connection.id, tokens),
    );
    if (!refreshToken) {
      await this.giveUp(connection.id);
      throw new OAuthError(409, messages.cannotRefresh);
    }
    let result;
    try {
      result = await refreshAccessToken(provider.tokenUrl, provider.client, refreshToken);
    } catch (error) {
      if (!(error instanceof TokenEndpointError)) throw error;
      await this.giveUp(connection.id);
      throw new OAuthError(502, messages.refreshFailed(error.reason));
    }
    const sealed = await this.cipher.seal(
      connection.id,
      result.accessToken,
      // Many providers keep the refresh token and send none back: then ours stays valid.
      result.refreshToken ?? refreshToken,
    );
    if (!(await this.store.replaceTokens(connection.id, lease, sealed.access, sealed.refresh))) {
      // Our lease ran out and another refresher took over; its result stands.
      throw new OAuthError(503, messages.refreshFailed('Timeout'));
    }
    const expiresAt =
      result.expiresIn === null
        ? null
        : new Date(Date.now() + result.expiresIn * 1000).toISOString();
    await this.store.setConnectionExpiry(connection.id, expiresAt);
    await this.store.releaseRefreshLease(connection.id, lease);
    return {
      connection: { ...connection, expires_at: expiresAt, needs_reconnect: false },
      accessToken: result.accessToken,
    };
  }

  /** The connection as stored now; it may have been disconnected meanwhile. */
  private async reread(previous: ConnectionRow): Promise<ConnectionRow> {
    const connection = await this.store.findConnectionById(previous.id);
    if (!connection?.is_active) {
      throw new OAuthError(404, messages.notConnected(this.providerName(previous.provider_id)));
    }
    return connection;
  }

  /**
   * Decrypts a stored token. One that fails authentication (another key, or altered in the
   * database) is never used: the connection must be made again.
   */
  private async open<T>(connection: ConnectionRow, decrypt: () => Promise<T>): Promise<T> {
    try {
      return await decrypt();
    } catch (error) {
      if (!(error instanceof TokenCipherError)) throw error;
      await this.giveUp(connection.id);
      throw this.needsReconnect(connection);
    }
  }

  private needsReconnect(connection: ConnectionRow): OAuthError {
    return new OAuthError(409, messages.needsReconnect(this.providerName(connection.provider_id)));
  }

  /**
   * A refresh that cannot succeed: the user has to connect again. The tokens are deleted
   * (which also ends the lease), so nothing hands out a token that is about to stop working.
   */
  private async giveUp(connectionId: string): Promise<void> {
    await this.store.markNeedsReconnect(connectionId);
    await this.store.deleteTokens(connectionId);
  }
}
