/**
 * The `organization-mail-server` edge function (issue 24): an organisation's admins save the
 * SMTP server its mail goes out through (Settings › E-mail).
 *
 * `POST /functions/v1/organization-mail-server` with the admin's session token and
 * `{ "host", "port", "username", "password", "fromAddress" }` answers the stored settings
 * without the password (`{ host, port, username, has_password, from_address }`). An empty
 * password keeps the stored one; no user name means no password. The host and port must be
 * ones the installation lets an organisation use (SmtpHostPolicy: public addresses, the usual
 * SMTP ports); the delivery job checks the addresses a name resolves to each time it connects.
 *
 * Whether the caller may is the database's decision, asked as the caller
 * (`authorize_organization_mail_server`: active admins and master admins of an organisation);
 * the password is then encrypted here (AES-256-GCM with `ORGANIZATION_MAIL_KEY`, bound to the
 * organisation) and stored with the service role, so that neither the database's API roles nor
 * a browser ever see it. Errors answer `{ error }`. Web-standard code only: the same module runs
 * on Supabase's Deno edge runtime (index.ts) and inside the embedded backend.
 */
import { corsHeaders } from '../_shared/cors.ts';
import type { FunctionEnv, FunctionHandler } from '../_shared/function-env.ts';
import { requireEnv } from '../_shared/function-env.ts';
import {
  organizationPasswordContext,
  ORGANIZATION_MAIL_KEY,
} from '../_shared/mail/organization-mail-key.ts';
import { SmtpHostPolicy } from '../_shared/mail/smtp-host-policy.ts';
import { encryptToken, importTokenKey } from '../oauth/crypto.ts';

const MAX_BODY_BYTES = 8 * 1024;

/** A browser's `<input type="email">` rule (WHATWG), as the database checks addresses. */
const EMAIL_ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

interface MailServerInput {
  host: string;
  port: number;
  username: string | null;
  /** Null: keep the stored one. */
  password: string | null;
  fromAddress: string;
}

const answer = (status: number, body: unknown) =>
  Response.json(body, { status, headers: corsHeaders });

/** The settings from the request body, or why they cannot be stored, in the admin's words. */
function readInput(text: string, policy: SmtpHostPolicy): MailServerInput | string {
  if (text.length > MAX_BODY_BYTES) return 'The settings are too long';
  let body: Record<string, unknown>;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return 'Send the settings as a JSON object';
    body = parsed as Record<string, unknown>;
  } catch {
    return 'Send the settings as a JSON object';
  }
  const text_ = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const host = text_(body.host).toLowerCase().replace(/\.$/, '');
  const port = typeof body.port === 'string' ? Number(body.port) : body.port;
  const username = text_(body.username);
  const password = typeof body.password === 'string' ? body.password : '';
  const fromAddress = text_(body.fromAddress);
  if (host === '') return 'Enter the mail server';
  if (typeof port !== 'number' || !Number.isInteger(port)) return 'Enter the port as a number';
  const problem = policy.problem(host, port);
  if (problem) return problem;
  if (username.length > 320 || /[\p{Cc}]/u.test(username)) return 'The user name is not valid';
  if (password.length > 1000 || /[\r\n]/.test(password)) return 'The password is not valid';
  if (!EMAIL_ADDRESS.test(fromAddress)) return 'Enter the From address as an e-mail address';
  return {
    host,
    port,
    username: username === '' ? null : username,
    password: password === '' ? null : password,
    fromAddress,
  };
}

export function createHandler(env: FunctionEnv): FunctionHandler {
  const baseUrl = requireEnv(env, 'SUPABASE_URL').replace(/\/+$/, '');
  const anonKey = requireEnv(env, 'SUPABASE_ANON_KEY');
  const serviceKey = requireEnv(env, 'SUPABASE_SERVICE_ROLE_KEY');
  const policy = SmtpHostPolicy.fromList((env.ORGANIZATION_SMTP_ALLOWED_HOSTS ?? '').split(','));
  // A missing or malformed key fails the first save: a password is never stored unencrypted.
  let key: Promise<CryptoKey> | undefined;

  const rpc = (name: string, token: string, body: unknown) =>
    fetch(`${baseUrl}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: {
        apikey: token === serviceKey ? serviceKey : anonKey,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  return async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return answer(405, { error: 'Use POST' });
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    // The anon key is a valid JWT too, but it belongs to nobody.
    if (!token || token === anonKey) return answer(401, { error: 'Not authenticated' });

    // The database decides first, as the caller: nobody else learns what this function checks.
    const allowed = await rpc('authorize_organization_mail_server', token, {});
    const verdict = (await allowed.json().catch(() => null)) as unknown;
    if (!allowed.ok) {
      const message = (verdict as { message?: unknown } | null)?.message;
      const status = allowed.status === 401 ? 401 : 403;
      return answer(status, { error: typeof message === 'string' ? message : 'Not allowed' });
    }
    if (typeof verdict !== 'string') return answer(403, { error: 'No organization found' });
    const organizationId = verdict;

    const input = readInput(await request.text(), policy);
    if (typeof input === 'string') return answer(400, { error: input });

    let ciphertext: string | null = null;
    if (input.password !== null && input.username !== null) {
      key ??= importTokenKey(env[ORGANIZATION_MAIL_KEY]);
      ciphertext = await encryptToken(
        await key,
        input.password,
        organizationPasswordContext(organizationId),
      );
    }
    const stored = await rpc('store_organization_mail_server', serviceKey, {
      organization_id: organizationId,
      host: input.host,
      port: input.port,
      username: input.username,
      password_ciphertext: ciphertext,
      from_address: input.fromAddress,
    });
    if (!stored.ok) {
      const message = ((await stored.json().catch(() => null)) as { message?: unknown } | null)
        ?.message;
      return answer(400, {
        error: typeof message === 'string' ? message : 'The settings could not be saved',
      });
    }
    const read = await fetch(
      `${baseUrl}/rest/v1/organization_mail_servers?organization_id=eq.${organizationId}` +
        '&select=host,port,username,has_password,from_address',
      {
        headers: {
          apikey: serviceKey,
          Authorization: `Bearer ${serviceKey}`,
          Accept: 'application/vnd.pgrst.object+json',
        },
      },
    );
    return answer(200, await read.json());
  };
}
