/**
 * Data access of the `oauth` function, with the service role (supabase/migrations/*_oauth.sql):
 * `oauth_states`, `oauth_configs`, `oauth_connections` and `oauth_connection_tokens`. Every
 * query names the caller's user and organisation itself, since the service role bypasses RLS.
 */
import type { RestClient } from './rest.ts';

export interface StateRow {
  id: string;
  user_id: string;
  organization_id: string;
  provider_id: string;
  redirect_uri: string | null;
  expires_at: string;
}

export interface ConfigRow {
  client_id: string;
  client_secret: string | null;
  authorize_url: string | null;
  token_url: string | null;
}

/** The fields of a connection the browser may see. */
export interface ConnectionRow {
  id: string;
  provider_id: string;
  user_id: string;
  organization_id: string;
  expires_at: string | null;
  scopes: string[];
  is_active: boolean;
  needs_reconnect: boolean;
  created_at: string;
}

export interface TokenRow {
  connection_id: string;
  /** Ciphertext (crypto.ts), never plain text. */
  access_token: string;
  refresh_token: string | null;
  refreshing_until: string | null;
}

const CONNECTION_COLUMNS =
  'id,provider_id,user_id,organization_id,expires_at,scopes,is_active,needs_reconnect,created_at';

export class OAuthStore {
  constructor(private readonly db: RestClient) {}

  async createState(row: Omit<StateRow, 'id'> & { state_hash: string }): Promise<void> {
    await this.db.insert('oauth_states', row);
  }

  /**
   * Marks the caller's unused state with this hash as used, in one conditional update, and
   * returns it: of two requests with the same state only one gets the row. Another user's
   * state is not touched, so nobody can spend a state that is not theirs.
   */
  async consumeState(stateHash: string, userId: string): Promise<StateRow | undefined> {
    const [row] = await this.db.update<StateRow>(
      'oauth_states',
      {
        state_hash: `eq.${stateHash}`,
        user_id: `eq.${userId}`,
        used_at: 'is.null',
        select: 'id,user_id,organization_id,provider_id,redirect_uri,expires_at',
      },
      { used_at: new Date().toISOString() },
    );
    return row;
  }

  /** How many of the user's states are still usable (counted up to `limit`). */
  async countLiveStates(userId: string, now: Date, limit: number): Promise<number> {
    const rows = await this.db.select('oauth_states', {
      select: 'id',
      user_id: `eq.${userId}`,
      used_at: 'is.null',
      expires_at: `gt.${now.toISOString()}`,
      limit: String(limit),
    });
    return rows.length;
  }

  /** Removes states that expired more than a day ago; they can never be used. */
  async deleteStaleStates(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
    await this.db.delete('oauth_states', { expires_at: `lt.${cutoff}`, select: 'id' });
  }

  async findConfig(organizationId: string, providerId: string): Promise<ConfigRow | undefined> {
    const [row] = await this.db.select<ConfigRow>('oauth_configs', {
      select: 'client_id,client_secret,authorize_url,token_url',
      organization_id: `eq.${organizationId}`,
      provider_id: `eq.${providerId}`,
    });
    return row;
  }

  /** The caller's active connection to a provider in their current organisation. */
  async findActiveConnection(
    userId: string,
    organizationId: string,
    providerId: string,
  ): Promise<ConnectionRow | undefined> {
    const [row] = await this.db.select<ConnectionRow>('oauth_connections', {
      select: CONNECTION_COLUMNS,
      user_id: `eq.${userId}`,
      organization_id: `eq.${organizationId}`,
      provider_id: `eq.${providerId}`,
      is_active: 'eq.true',
    });
    return row;
  }

  async findConnectionById(id: string): Promise<ConnectionRow | undefined> {
    const [row] = await this.db.select<ConnectionRow>('oauth_connections', {
      select: CONNECTION_COLUMNS,
      id: `eq.${id}`,
    });
    return row;
  }

  /**
   * Creates or replaces the caller's connection to a provider (one per user and provider),
   * inactive until its tokens are stored, so no reader ever sees an active connection without
   * tokens. A reconnection starts afresh: new connected date, no reconnect flag.
   */
  async upsertInactiveConnection(fields: {
    provider_id: string;
    user_id: string;
    organization_id: string;
    expires_at: string | null;
    scopes: readonly string[];
  }): Promise<ConnectionRow> {
    const [row] = await this.db.insert<ConnectionRow>(
      'oauth_connections',
      {
        ...fields,
        is_active: false,
        needs_reconnect: false,
        created_at: new Date().toISOString(),
      },
      {
        query: { on_conflict: 'user_id,provider_id', select: CONNECTION_COLUMNS },
        prefer: ['resolution=merge-duplicates'],
      },
    );
    if (!row) throw new Error('upserting a connection returned no row');
    return row;
  }

  async activateConnection(id: string): Promise<ConnectionRow> {
    const [row] = await this.db.update<ConnectionRow>(
      'oauth_connections',
      { id: `eq.${id}`, select: CONNECTION_COLUMNS },
      { is_active: true },
    );
    if (!row) throw new Error('activating a connection matched no row');
    return row;
  }

  async deactivateConnection(id: string): Promise<void> {
    await this.db.update(
      'oauth_connections',
      { id: `eq.${id}`, select: 'id' },
      {
        is_active: false,
      },
    );
  }

  async setConnectionExpiry(id: string, expiresAt: string | null): Promise<void> {
    await this.db.update(
      'oauth_connections',
      { id: `eq.${id}`, select: 'id' },
      {
        expires_at: expiresAt,
        needs_reconnect: false,
      },
    );
  }

  async markNeedsReconnect(id: string): Promise<void> {
    await this.db.update(
      'oauth_connections',
      { id: `eq.${id}`, select: 'id' },
      {
        needs_reconnect: true,
      },
    );
  }

  async findTokens(connectionId: string): Promise<TokenRow | undefined> {
    const [row] = await this.db.select<TokenRow>('oauth_connection_tokens', {
      select: 'connection_id,access_token,refresh_token,refreshing_until',
      connection_id: `eq.${connectionId}`,
    });
    return row;
  }

  async upsertTokens(row: {
    connection_id: string;
    access_token: string;
    refresh_token: string | null;
  }): Promise<void> {
    await this.db.insert(
      'oauth_connection_tokens',
      { ...row, refreshing_until: null },
      {
        query: { on_conflict: 'connection_id', select: 'connection_id' },
        prefer: ['resolution=merge-duplicates'],
      },
    );
  }

  async deleteTokens(connectionId: string): Promise<void> {
    await this.db.delete('oauth_connection_tokens', {
      connection_id: `eq.${connectionId}`,
      select: 'connection_id',
    });
  }

  /**
   * Takes the refresh lease of a connection until `until`, when nobody holds it (or the
   * holder's lease ran out). One conditional update: of concurrent callers, on any number of
   * function instances, exactly one gets the row back.
   */
  async claimRefreshLease(connectionId: string, now: Date, until: Date): Promise<boolean> {
    const rows = await this.db.update(
      'oauth_connection_tokens',
      {
        connection_id: `eq.${connectionId}`,
        or: `(refreshing_until.is.null,refreshing_until.lt."${now.toISOString()}")`,
        select: 'connection_id',
      },
      { refreshing_until: until.toISOString() },
    );
    return rows.length === 1;
  }

  /**
   * Stores refreshed tokens, only while `lease` (the value `claimRefreshLease` set) is still
   * ours; the lease is kept until `releaseRefreshLease`. False when the lease was lost.
   */
  async replaceTokens(
    connectionId: string,
    lease: Date,
    accessToken: string,
    refreshToken: string | null,
  ): Promise<boolean> {
    const rows = await this.db.update(
      'oauth_connection_tokens',
      {
        connection_id: `eq.${connectionId}`,
        refreshing_until: `eq.${lease.toISOString()}`,
        select: 'connection_id',
      },
      { access_token: accessToken, refresh_token: refreshToken },
    );
    return rows.length === 1;
  }

  /** Gives the lease back, unless it ran out and somebody else holds it now. */
  async releaseRefreshLease(connectionId: string, lease: Date): Promise<void> {
    await this.db.update(
      'oauth_connection_tokens',
      {
        connection_id: `eq.${connectionId}`,
        refreshing_until: `eq.${lease.toISOString()}`,
        select: 'connection_id',
      },
      { refreshing_until: null },
    );
  }
}

/** The browser's view of a connection: no user or organisation ids, no tokens. */
export function publicConnection(row: ConnectionRow) {
  return {
    id: row.id,
    provider_id: row.provider_id,
    expires_at: row.expires_at,
    scopes: row.scopes,
    is_active: row.is_active,
    needs_reconnect: row.needs_reconnect,
    created_at: row.created_at,
  };
}
