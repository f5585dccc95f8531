import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { errorFormat } from '../http/api-error.ts';
import type { Credentials } from '../http/credentials.ts';
import { functionEnv } from './env.ts';
import { GatewayError, functionsErrors, gatewayErrors } from './errors.ts';
import type { EdgeFunction } from './registry.ts';
import { loadFunctions } from './registry.ts';

/** Largest request body passed to a function. */
export const MAX_FUNCTION_BODY_BYTES = 10 * 1024 * 1024;
/** Wall-clock limit of one invocation (Supabase's hosted limit is 150 s). */
const WALL_CLOCK_LIMIT_MS = 150_000;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
// Hop-by-hop headers describe this connection, not the request the function sees.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
]);
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * The caller must present a JWT this server signed (the anon key, a user's access token, the
 * service-role key) as `Authorization: Bearer …`, as Supabase's gateway checks before a
 * function with `verify_jwt` runs.
 */
function checkJwt({ authorization, verified }: Credentials): void {
  const { unauthorized } = gatewayErrors;
  if (authorization === 'missing') throw unauthorized('Missing authorization header');
  if (authorization === 'malformed') throw unauthorized("Auth header is not 'Bearer {token}'");
  if (!verified?.ok) throw unauthorized('Invalid JWT');
}

/** Reads the body, at most `MAX_FUNCTION_BODY_BYTES` of it. */
async function boundedBody(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_FUNCTION_BODY_BYTES) {
    throw gatewayErrors.tooLarge();
  }
  if (!request.body) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_FUNCTION_BODY_BYTES) throw gatewayErrors.tooLarge();
      parts.push(value);
    }
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    // The client went away mid-body; nobody will read this answer.
    throw gatewayErrors.unreadableBody();
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(parts);
}

/**
 * The request as a function sees it on Supabase: the path starts at the function's name
 * (`/<name>/sub/path?query`, the gateway strips `/functions/v1`), the caller's headers as sent.
 */
function functionRequest(
  c: Context,
  name: string,
  suffix: string,
  body: Uint8Array<ArrayBuffer> | null,
): Request {
  const url = new URL(c.req.url);
  const headers = new Headers();
  c.req.raw.headers.forEach((value, header) => {
    if (!HOP_BY_HOP.has(header)) headers.append(header, value);
  });
  return new Request(`${url.origin}/${name}${suffix}${url.search}`, {
    method: c.req.method,
    headers,
    body: body && body.byteLength > 0 ? body : null,
  });
}

/** A copy of the handler's response with mutable headers (the API middleware adds some). */
function relayResponse(response: Response, method: string): Response {
  const body = method === 'HEAD' || NULL_BODY_STATUSES.has(response.status) ? null : response.body;
  if (body === null) void response.body?.cancel().catch(() => undefined);
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
  });
}

async function invoke(fn: EdgeFunction, request: Request): Promise<Response> {
  let handler;
  try {
    handler = await fn.handler();
  } catch (error) {
    console.error(`functions: ${fn.name} failed to boot:`, error);
    return gatewayErrors.bootFailed().toResponse();
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), WALL_CLOCK_LIMIT_MS);
    timer.unref();
  });
  try {
    const result = await Promise.race([handler(request), timeout]);
    if (result === 'timeout') {
      console.error(`functions: ${fn.name} did not answer within ${WALL_CLOCK_LIMIT_MS / 1000}s`);
      return gatewayErrors.timedOut().toResponse();
    }
    if (!(result instanceof Response)) throw new Error('the handler did not return a Response');
    return relayResponse(result, request.method);
  } catch (error) {
    // The function's bug, not the caller's: logged whole here, the caller learns nothing more.
    console.error(`functions: ${fn.name} failed:`, error);
    return gatewayErrors.failed().toResponse();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Supabase Edge Functions at `/functions/v1/<name>`: runs `createHandler` of
 * `{functionsDir}/<name>/handler.ts` (see supabase/functions/README.md), with the JWT check,
 * errors and request shape of Supabase's edge gateway. No function folder at all is fine.
 */
export async function createFunctionsApp(ctx: AppContext): Promise<Hono<ApiEnv>> {
  const { functionsDir } = ctx.config;
  const functions = await loadFunctions({
    functionsDir,
    verifyJwt: ctx.config.functions.verifyJwt,
    env: (name) => functionEnv(ctx, name),
  });

  const app = new Hono<ApiEnv>();
  app.use('*', errorFormat(functionsErrors));
  app.all('*', async (c) => {
    // The path as sent, after the mount point (`/functions/v1`): `/<name>[/suffix]`.
    const base = c.req.routePath.replace(/\/\*$/, '');
    const rest = new URL(c.req.url).pathname.slice(base.length);
    const match = /^\/([^/]+)(\/.*)?$/.exec(rest);
    const fn = match ? functions.get(match[1]!) : undefined;
    if (!match || !fn) throw gatewayErrors.notFound();
    if (!METHODS.has(c.req.method)) throw gatewayErrors.methodNotAllowed(c.req.method);
    if (fn.verifyJwt && c.req.method !== 'OPTIONS') checkJwt(c.var.credentials);
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    const body = hasBody ? await boundedBody(c.req.raw) : null;
    return invoke(fn, functionRequest(c, fn.name, match[2] ?? '', body));
  });
  return app;
}
