/**
 * The `member-reset-link` edge function (issue 24): a one-time link that signs a member in to
 * set a new password, for an admin to pass on when e-mail cannot reach them (no SMTP, a lost
 * mailbox), as GoTrue's admin `generate_link` makes for a server that delivers it itself.
 *
 * `POST /functions/v1/member-reset-link` with `{ "userId": "…" }` and the admin's session token
 * answers `{ "link": "{SITE_URL}/reset-password?token_hash=…&type=recovery", "email": "…" }`.
 * Who may have whose link is the database's decision, asked as the caller
 * (`authorize_password_reset_link`: admins for users, master admins for anyone else of their
 * organisation, not for themselves, 20 an hour per organisation, recorded in the history); only
 * then is the link made with the service role. The link works once, for an hour, like the
 * e-mailed one.
 *
 * Errors answer `{ error }`. Web-standard code only: the same module runs on Supabase's Deno
 * edge runtime (index.ts) and inside the embedded backend.
 */
import { corsHeaders } from '../_shared/cors.ts';
import type { FunctionEnv, FunctionHandler } from '../_shared/function-env.ts';
import { requireEnv } from '../_shared/function-env.ts';

const MAX_BODY_BYTES = 4 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const answer = (status: number, body: unknown) =>
  Response.json(body, { status, headers: corsHeaders });

async function requestedUser(request: Request): Promise<string | null> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return null;
  try {
    const userId = (JSON.parse(text) as { userId?: unknown } | null)?.userId;
    return typeof userId === 'string' && UUID.test(userId) ? userId : null;
  } catch {
    return null;
  }
}

export function createHandler(env: FunctionEnv): FunctionHandler {
  const baseUrl = requireEnv(env, 'SUPABASE_URL').replace(/\/+$/, '');
  const anonKey = requireEnv(env, 'SUPABASE_ANON_KEY');
  const serviceKey = requireEnv(env, 'SUPABASE_SERVICE_ROLE_KEY');
  const siteUrl = requireEnv(env, 'SITE_URL').replace(/\/+$/, '');

  return async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return answer(405, { error: 'Use POST' });
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    // The anon key is a valid JWT too, but it belongs to nobody.
    if (!token || token === anonKey) return answer(401, { error: 'Not authenticated' });
    const userId = await requestedUser(request);
    if (!userId) return answer(400, { error: 'userId must be the id of a member' });

    // The database decides, as the caller, and records the link in the history.
    const allowed = await fetch(`${baseUrl}/rest/v1/rpc/authorize_password_reset_link`, {
      method: 'POST',
      headers: {
        apikey: anonKey,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ user_id: userId }),
    });
    const verdict = (await allowed.json().catch(() => null)) as unknown;
    if (!allowed.ok) {
      const message = (verdict as { message?: unknown } | null)?.message;
      const status = allowed.status === 401 || allowed.status === 403 ? allowed.status : 400;
      return answer(status, { error: typeof message === 'string' ? message : 'Not allowed' });
    }
    if (typeof verdict !== 'string' || !verdict) {
      return answer(502, { error: 'The member has no e-mail address' });
    }

    const made = await fetch(`${baseUrl}/auth/v1/admin/generate_link`, {
      method: 'POST',
      headers: {
        apikey: serviceKey,
        Authorization: `Bearer ${serviceKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ type: 'recovery', email: verdict }),
    });
    const link = (await made.json().catch(() => null)) as { hashed_token?: unknown } | null;
    if (!made.ok || typeof link?.hashed_token !== 'string') {
      return answer(502, { error: 'The reset link could not be made; please try again' });
    }
    const query = new URLSearchParams({ token_hash: link.hashed_token, type: 'recovery' });
    return answer(200, { link: `${siteUrl}/reset-password?${query}`, email: verdict });
  };
}
