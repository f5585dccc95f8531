/**
 * The `oauth` edge function: connections to outside services with the client secret and the
 * provider tokens kept on the server (docs/architecture.md, issue 7).
 *
 * `POST /functions/v1/oauth` with a JSON body `{ action, … }` and the user's session token:
 * - `start`    `{ providerId, origin? }`       → `{ url, state }`
 * - `complete` `{ providerId, code, state }`   → `{ connection }`
 * - `token`    `{ providerId }`                → `{ access_token, token_type, expires_at }`
 * - `status`   `{ providerId }`                → `{ connection }` (refreshed when due, no token)
 * - `configure` `{ providerId, clientId, clientSecret, authorizeUrl, tokenUrl }` → `{ saved }`
 *   (master admins; addresses only on the hosts endpoint-policy.ts allows)
 * Disconnecting is the rpc `disconnect_oauth_connection`. Errors answer `{ error }` with the
 * specification's texts.
 *
 * Web-standard code only (fetch, WebCrypto): the same module runs on Supabase's Deno edge
 * runtime (index.ts) and inside the embedded backend.
 */
import type { FunctionEnv, FunctionHandler } from '../_shared/function-env.ts';
import { requireEnv } from '../_shared/function-env.ts';
import type { ActionContext } from './actions.ts';
import {
  accessToken,
  completeAuthorization,
  connectionStatus,
  saveProviderConfig,
  startAuthorization,
} from './actions.ts';
import { AppAddresses } from './app-address.ts';
import { authenticate } from './caller.ts';
import { databaseClient } from './database.ts';
import { EndpointPolicy } from './endpoint-policy.ts';
import { errorResponse, json, messages, OAuthError, preflight } from './http.ts';
import { findProvider } from '../_shared/oauth-providers.ts';
import { TokenRefresher } from './refresh.ts';
import { OAuthStore } from './store.ts';
import { TokenCipher } from './token-cipher.ts';
import { assertTokenKey } from './crypto.ts';

const MAX_BODY_BYTES = 16 * 1024;

type Body = Record<string, unknown>;

async function readBody(request: Request): Promise<Body> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new OAuthError(413, 'Request body is too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OAuthError(400, 'Request body must be JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new OAuthError(400, 'Request body must be a JSON object');
  }
  return body as Body;
}

/** A required string field of at most `max` characters. */
function text(body: Body, field: string, max: number, missing = `${field} is required`): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw new OAuthError(400, missing);
  if (value.length > max) throw new OAuthError(400, `${field} is too long`);
  return value;
}

/**
 * An optional string field: null when absent or null. Its length is the database's to check,
 * with its own texts (the body as a whole is bounded already).
 */
function optionalText(body: Body, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new OAuthError(400, `${field} must be a string`);
  return value;
}

/** The origin the browser names: the body's `origin` (the SPA sends it), else the Origin header. */
function requestedOrigin(request: Request, body: Body): unknown {
  return 'origin' in body ? body.origin : (request.headers.get('origin') ?? undefined);
}

/**
 * Builds the request handler from the function's environment: `SUPABASE_URL`,
 * `SUPABASE_ANON_KEY`, `SUPABASE_SERVICE_ROLE_KEY`, `OAUTH_TOKEN_KEY` (256 bits, base64url),
 * `SITE_URL`, and optionally `ADDITIONAL_REDIRECT_URLS` (see app-address.ts) and
 * `OAUTH_ALLOWED_HOSTS` (see endpoint-policy.ts).
 * Concurrent token refreshes of one connection are shared within one handler (see refresh.ts).
 */
export function createHandler(env: FunctionEnv): FunctionHandler {
  const supabaseUrl = requireEnv(env, 'SUPABASE_URL');
  const anonKey = requireEnv(env, 'SUPABASE_ANON_KEY');
  const serviceRoleKey = requireEnv(env, 'SUPABASE_SERVICE_ROLE_KEY');
  const service = databaseClient(supabaseUrl, serviceRoleKey, serviceRoleKey);
  const store = new OAuthStore(service);
  const addresses = AppAddresses.fromEnv(env);
  const policy = EndpointPolicy.fromEnv(env);
  // Checked now, so a missing or malformed key stops the start-up instead of failing (or, worse,
  // storing tokens unencrypted) later; WebCrypto imports it asynchronously on first use.
  const tokenKey = requireEnv(env, 'OAUTH_TOKEN_KEY');
  assertTokenKey(tokenKey);
  let ready: Promise<{ cipher: TokenCipher; refresher: TokenRefresher }> | undefined;
  const prepare = () => {
    ready ??= TokenCipher.fromKey(tokenKey).then((cipher) => ({
      cipher,
      refresher: new TokenRefresher(store, policy, cipher, (id) => findProvider(id)?.name ?? id),
    }));
    return ready;
  };

  return async (request) => {
    if (request.method === 'OPTIONS') return preflight();
    try {
      if (request.method !== 'POST') throw new OAuthError(405, 'Method not allowed');
      const { cipher, refresher } = await prepare();
      const caller = await authenticate(request, supabaseUrl, anonKey);
      const body = await readBody(request);
      const context: ActionContext = { caller, store, policy, cipher, refresher };
      const providerId = () => text(body, 'providerId', 64);
      switch (body.action) {
        case 'start':
          return json(
            200,
            await startAuthorization(
              context,
              providerId(),
              addresses.returnAddress(requestedOrigin(request, body)),
            ),
          );
        case 'complete':
          return json(
            200,
            await completeAuthorization(
              context,
              providerId(),
              text(body, 'code', 4096, messages.missingParameters),
              text(body, 'state', 256, messages.missingParameters),
            ),
          );
        case 'token':
          return json(200, await accessToken(context, providerId()));
        case 'status':
          return json(200, await connectionStatus(context, providerId()));
        case 'configure':
          return json(
            200,
            await saveProviderConfig(
              context,
              databaseClient(supabaseUrl, anonKey, caller.accessToken),
              {
                providerId: providerId(),
                clientId: optionalText(body, 'clientId'),
                clientSecret: optionalText(body, 'clientSecret'),
                authorizeUrl: optionalText(body, 'authorizeUrl'),
                tokenUrl: optionalText(body, 'tokenUrl'),
              },
            ),
          );
        default:
          throw new OAuthError(400, 'Unknown action');
      }
    } catch (error) {
      if (error instanceof OAuthError) return errorResponse(error);
      // A bug or an outage: details to the log, nothing about internals to the caller.
      console.error('oauth function failed:', error);
      return json(500, { error: 'Internal server error' });
    }
  };
}
