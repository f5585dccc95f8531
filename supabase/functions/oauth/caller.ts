import { messages, OAuthError } from './http.ts';
import { databaseClient, DatabaseError } from './database.ts';

/** The signed-in member a request comes from. */
export interface Caller {
  userId: string;
  organizationId: string;
  /** Their access token: to act as them where the database decides (row-level security). */
  accessToken: string;
}

interface ProfileRow {
  id: string;
  organization_id: string | null;
  is_active: boolean;
}

function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}

/**
 * Resolves the caller by asking the auth service who the bearer token belongs to (so a
 * signed-out or revoked session is refused even when the token has not expired yet), then
 * reads their profile as them, so that the database's rules decide as they do everywhere: only
 * active members of an organisation may use connections, and not with a session that has not
 * proved a second factor the database asks of them (refused with the database's message).
 */
export async function authenticate(
  request: Request,
  supabaseUrl: string,
  anonKey: string,
): Promise<Caller> {
  const token = bearerToken(request);
  // The anon key is also a valid JWT; it belongs to no user.
  if (!token || token === anonKey) throw new OAuthError(401, messages.notAuthenticated);
  const response = await fetch(`${supabaseUrl.replace(/\/+$/, '')}/auth/v1/user`, {
    headers: { apikey: anonKey, Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) {
    await response.body?.cancel();
    if (response.status >= 500) throw new Error(`auth service answered ${response.status}`);
    throw new OAuthError(401, messages.notAuthenticated);
  }
  const user = (await response.json()) as { id?: unknown };
  if (typeof user.id !== 'string') throw new OAuthError(401, messages.notAuthenticated);

  const { data, error } = await databaseClient(supabaseUrl, anonKey, token)
    .from('user_profiles')
    .select('id,organization_id,is_active')
    .eq('id', user.id);
  // 42501: the database refuses this session (a second factor it has not proved).
  if (error?.code === '42501') throw new OAuthError(403, error.message);
  if (error) throw new DatabaseError("reading the caller's profile", error);
  const [profile] = (data ?? []) as ProfileRow[];
  if (!profile?.organization_id || !profile.is_active) {
    throw new OAuthError(403, messages.noOrganization);
  }
  return { userId: user.id, organizationId: profile.organization_id, accessToken: token };
}
