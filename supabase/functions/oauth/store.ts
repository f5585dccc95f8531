/**
 * Data access of the `oauth` function, with the service role (supabase/schemas/07_oauth.sql):
 * `oauth_states`, `oauth_configs`, `oauth_connections` and `oauth_connection_tokens`. Every
 * query names the caller's user and organisation itself, since the service role bypasses RLS.
 */
import { rowsOf, type DatabaseClient } from './database.ts';

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
const STATE_COLUMNS = 'id,user_id,organization_id,provider_id,redirect_uri,expires_at';

export class OAuthStore {
  /** `db` must act with the service role. */
  constructor(private readonly db: DatabaseClient) {}

  async createState(row: Omit<StateRow, 'id'> & { state_hash: string }): Promise<void> {
    await rowsOf(this.db.from('oauth_states').insert(row), 'storing a state');
  }

  /**
   * Marks the caller's unused state with this hash as used, in one conditional update, and
   * returns it: of two requests with the same state only one gets the row. Another user's
   * state is not touched, so nobody can spend a state that is not theirs.
   */
  async consumeState(stateHash: string, userId: string): Promise<StateRow | undefined> {
    const [row] = await rowsOf<StateRow>(
      this.db
        .from('oauth_states')
        .update({ used_at: new Date().toISOString() })
        .eq('state_hash', stateHash)
        .eq('user_id', userId)
        .is('used_at', null)
        .select(STATE_COLUMNS),
      'spending a state',
    );
    return row;
  }

  /** How many of the user's states are still usable (counted up to `limit`). */
  async countLiveStates(userId: string, now: Date, limit: number): Promise<number> {
    const rows = await rowsOf(
      this.db
        .from('oauth_states')
        .select('id')
        .eq('user_id', userId)
        .is('used_at', null)
        .gt('expires_at', now.toISOString())
        .limit(limit),
      'counting states',
    );
    return rows.length;
  }

  /** Removes states that expired more than a day ago; they can never be used. */
  async deleteStaleStates(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
    await rowsOf(
      this.db.from('oauth_states').delete().lt('expires_at', cutoff),
      'deleting stale states',
    );
  }

  async findConfig(organizationId: string, providerId: string): Promise<ConfigRow | undefined> {
    const [row] = await rowsOf<ConfigRow>(
      this.db
        .from('oauth_configs')
        .select('client_id,client_secret,authorize_url,token_url')
        .eq('organization_id', organizationId)
        .eq('provider_id', providerId),
      'reading a provider configuration',
    );
    return row;
  }

  /** The caller's active connection to a provider in their current organisation. */
  async findActiveConnection(
    userId: string,
    organizationId: string,
    providerId: string,
  ): Promise<ConnectionRow | undefined> {
    const [row] = await rowsOf<ConnectionRow>(
      this.db
        .from('oauth_connections')
        .select(CONNECTION_COLUMNS)
        .eq('user_id', userId)
        .eq('organization_id', organizationId)
        .eq('provider_id', providerId)
        .eq('is_active', true),
      'reading a connection',
    );
    return row;
  }

  async findConnectionById(id: string): Promise<ConnectionRow | undefined> {
    const [row] = await rowsOf<ConnectionRow>(
      this.db.from('oauth_connections').select(CONNECTION_COLUMNS).eq('id', id),
      'reading a connection',
    );
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
    const [row] = await rowsOf<ConnectionRow>(
      this.db
        .from('oauth_connections')
        .upsert(
          {
            ...fields,
            is_active: false,
            needs_reconnect: false,
            created_at: new Date().toISOString(),
          },
          { onConflict: 'user_id,provider_id' },
        )
        .select(CONNECTION_COLUMNS),
      'storing a connection',
    );
    if (!row) throw new Error('upserting a connection returned no row');
    return row;
  }

  async activateConnection(id: string): Promise<ConnectionRow> {
    const [row] = await rowsOf<ConnectionRow>(
      this.db
        .from('oauth_connections')
        .update({ is_active: true })
        .eq('id', id)
        .select(CONNECTION_COLUMNS),
      'activating a connection',
    );
    if (!row) throw new Error('activating a connection matched no row');
    return row;
  }

  async setConnectionExpiry(id: string, expiresAt: string | null): Promise<void> {
    await rowsOf(
      this.db
        .from('oauth_connections')
        .update({ expires_at: expiresAt, needs_reconnect: false })
        .eq('id', id),
      'storing an expiry',
    );
  }

  async markNeedsReconnect(id: string): Promise<void> {
    await rowsOf(
      this.db.from('oauth_connections').update({ needs_reconnect: true }).eq('id', id),
      'marking a connection for reconnection',
    );
  }

  async findTokens(connectionId: string): Promise<TokenRow | undefined> {
    const [row] = await rowsOf<TokenRow>(
      this.db
        .from('oauth_connection_tokens')
        .select('connection_id,access_token,refresh_token,refreshing_until')
        .eq('connection_id', connectionId),
      'reading tokens',
    );
    return row;
  }

  async upsertTokens(row: {
    connection_id: string;
    access_token: string;
    refresh_token: string | null;
  }): Promise<void> {
    await rowsOf(
      this.db
        .from('oauth_connection_tokens')
        .upsert({ ...row, refreshing_until: null }, { onConflict: 'connection_id' }),
      'storing tokens',
    );
  }

  async deleteTokens(connectionId: string): Promise<void> {
    await rowsOf(
      this.db.from('oauth_connection_tokens').delete().eq('connection_id', connectionId),
      'deleting tokens',
    );
  }

  /**
   * Takes the refresh lease of a connection until `until`, when nobody holds it (or the
   * holder's lease ran out). One conditional update: of concurrent callers, on any number of
   * function instances, exactly one gets the row back.
   */
  async claimRefreshLease(connectionId: string, now: Date, until: Date): Promise<boolean> {
    const rows = await rowsOf(
      this.db
        .from('oauth_connection_tokens')
        .update({ refreshing_until: until.toISOString() })
        .eq('connection_id', connectionId)
        .or(`refreshing_until.is.null,refreshing_until.lt."${now.toISOString()}"`)
        .select('connection_id'),
      'taking the refresh lease',
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
    const rows = await rowsOf(
      this.db
        .from('oauth_connection_tokens')
        .update({ access_token: accessToken, refresh_token: refreshToken })
        .eq('connection_id', connectionId)
        .eq('refreshing_until', lease.toISOString())
        .select('connection_id'),
      'storing refreshed tokens',
    );
    return rows.length === 1;
  }

  /** Gives the lease back, unless it ran out and somebody else holds it now. */
  async releaseRefreshLease(connectionId: string, lease: Date): Promise<void> {
    await rowsOf(
      this.db
        .from('oauth_connection_tokens')
        .update({ refreshing_until: null })
        .eq('connection_id', connectionId)
        .eq('refreshing_until', lease.toISOString()),
      'giving the refresh lease back',
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
