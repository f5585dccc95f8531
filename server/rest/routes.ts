import { Hono } from 'hono';
import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { isPostgresError } from '../db/database.ts';
import type { ScopedDatabase } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { errorFormat } from '../http/api-error.ts';
import type { Caller } from '../http/caller.ts';
import { authenticate } from './authenticate.ts';
import { parsePayload, readBody } from './body.ts';
import { RestError, SchemaMissError, invalidBody, restErrors } from './errors.ts';
import { execute } from './execute.ts';
import { checkSelectBounds } from './limits.ts';
import { prepareRead } from './handle-read.ts';
import { prepareRpc } from './handle-rpc.ts';
import { prepareWrite } from './handle-write.ts';
import type { Prepared, RestRequest } from './handler-types.ts';
import { checkProfile, negotiateMedia } from './negotiate.ts';
import type { Preferences } from './preferences.ts';
import { namesTimezone, parsePreferences } from './preferences.ts';
import { parseQuery } from './query-params.ts';
import { applyRangeHeader } from './range-header.ts';
import { ReadCache, answerOf, readCacheFor, responseOf } from './read-cache.ts';
import { ReadTemplates, readShape } from './read-templates.ts';
import type { SchemaCacheHolder } from './schema-cache.ts';
import { schemaCacheFor } from './schema-cache.ts';
import type { SchemaCache } from './schema-types.ts';
import { timezoneNames } from './timezones.ts';

type Resource = { kind: 'table' | 'rpc'; name: string };

const TABLE_METHODS = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'DELETE']);
const RPC_METHODS = new Set(['GET', 'HEAD', 'POST']);
// Errors after which the cache may be stale: the statement named something that is gone.
const STALE_SQLSTATES = new Set(['42P01', '42703', '42883']);

function rawQuery(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? '' : url.slice(mark + 1);
}

/** Plans against the cache; on an unknown name, reloads the cache if the catalog changed and retries once. */
async function planWithRefresh(
  db: ScopedDatabase,
  holder: SchemaCacheHolder,
  plan: (cache: SchemaCache) => Prepared,
): Promise<Prepared> {
  try {
    return plan(await holder.get(db));
  } catch (error) {
    if (!(error instanceof SchemaMissError)) throw error;
    if (!(await holder.refreshIfChanged(db))) throw error;
    return plan(await holder.get(db));
  }
}

function requiresBody(resource: Resource, method: string): boolean {
  return method === 'POST' || (resource.kind === 'table' && method === 'PATCH');
}

function checkContentType(headers: Headers): void {
  const type = (headers.get('content-type') ?? 'application/json')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && type !== '')
    throw invalidBody(`Content-Type not acceptable: ${type}`);
}

/**
 * The request's headers as they came, names and values in turn: Node's `rawHeaders` when the
 * request came through the Node server, else (`app.request()` in-process) its `Headers`.
 */
function rawHeadersOf(c: Context): readonly string[] {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.rawHeaders ?? [...c.req.raw.headers].flat();
}

/** What `run` answered, and whether the read cache may keep it. */
interface Answer {
  response: Response;
  cacheable: boolean;
}

/** A table read answered from the read cache when it is still current, else run and kept. */
async function cachedRead(
  cache: ReadCache,
  c: Context,
  run: () => Promise<Answer>,
): Promise<Response> {
  const key = ReadCache.keyOf(c.req.method, c.req.url, rawHeadersOf(c));
  const hit = cache.get(key);
  if (hit) return responseOf(hit);
  const ticket = cache.ticket(key);
  const { response, cacheable } = await run();
  // Not kept while a write runs, nor any answer but rows, nor one that may change by itself.
  if (!ticket || !cacheable || (response.status !== 200 && response.status !== 206)) {
    return response;
  }
  const answer = answerOf(response);
  if (answer) cache.set(key, ticket, answer);
  return response;
}

function checkMethod(resource: Resource, method: string): void {
  const allowed = resource.kind === 'table' ? TABLE_METHODS : RPC_METHODS;
  if (allowed.has(method)) return;
  throw resource.kind === 'rpc'
    ? new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`)
    : new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
}

/** Whether the request's transaction ends with a rollback (`[api] db_tx_end`, `Prefer: tx`). */
const rollsBack = (prefs: Preferences, txEnd: string) =>
  prefs.tx === 'rollback' || (txEnd.startsWith('rollback') && prefs.tx !== 'commit');

/**
 * Parses, plans and runs one request as `caller`; a table read of a shape planned before
 * (`templates`) is only bound again.
 */
async function run(
  ctx: AppContext,
  c: Context<ApiEnv>,
  resource: Resource,
  caller: Caller,
  holder: SchemaCacheHolder,
  templates: ReadTemplates,
): Promise<Answer> {
  const db = c.get('db');
  const headers = c.req.raw.headers;
  const method = c.req.method;
  const txEnd = ctx.config.api.txEnd;
  const tableRead = resource.kind === 'table' && (method === 'GET' || method === 'HEAD');
  const shape = tableRead ? readShape(method, resource.name, rawQuery(c.req.url), headers) : null;
  if (shape) {
    // A shape planned before: its statement with this request's values (read-templates.ts).
    const templated = templates.prepare(await holder.get(db), shape);
    if (templated) {
      const { prepared, request } = templated;
      const response = await execute(db, caller, prepared, {
        method,
        path: `/${resource.name}`,
        headers,
        rollback: rollsBack(request.prefs, txEnd),
      });
      return { response, cacheable: prepared.cacheable === true };
    }
  }
  const profileNegotiated = checkProfile(method, headers);
  const prefer = headers.get('prefer');
  const prefs = parsePreferences(prefer, {
    txOverride: txEnd.endsWith('-allow-override'),
    ...(namesTimezone(prefer) ? { timezones: await timezoneNames(db) } : {}),
  });
  const media = negotiateMedia(headers.get('accept'));
  const isRpcRead = resource.kind === 'rpc' && method !== 'POST';
  const query = parseQuery(rawQuery(c.req.url), isRpcRead);
  checkSelectBounds(query.select, ctx.config.api);
  // A mutation changes every row it matches, whatever range the client asks to see.
  if (method === 'GET' || method === 'HEAD' || resource.kind === 'rpc') {
    applyRangeHeader(query, headers.get('range'));
  }

  const req: RestRequest = {
    method,
    resource: resource.name,
    query,
    caller,
    prefs,
    media,
    profileNegotiated,
    limits: ctx.config.api,
  };
  if (requiresBody(resource, method)) {
    checkContentType(headers);
    const text = await readBody(c.req.raw);
    const isRpc = resource.kind === 'rpc';
    req.payload = parsePayload(isRpc && text.trim() === '' ? '{}' : text, {
      uniformKeys: query.columns === undefined,
    });
  }

  const prepare =
    resource.kind === 'rpc'
      ? prepareRpc
      : method === 'GET' || method === 'HEAD'
        ? prepareRead
        : prepareWrite;
  let planned: SchemaCache | undefined;
  const prepared = await planWithRefresh(db, holder, (cache) => {
    planned = cache;
    return prepare(cache, req);
  });
  if (shape && planned) templates.learn(planned, shape, req, headers.get('range'));
  const path = resource.kind === 'rpc' ? `/rpc/${resource.name}` : `/${resource.name}`;
  const response = await execute(db, caller, prepared, {
    method,
    path,
    headers,
    ...(prefs.timezone !== undefined ? { timezone: prefs.timezone } : {}),
    rollback: rollsBack(prefs, txEnd),
  });
  return { response, cacheable: prepared.cacheable === true };
}

async function handle(
  ctx: AppContext,
  c: Context<ApiEnv>,
  resource: Resource,
  templates: ReadTemplates,
): Promise<Response> {
  const method = c.req.method;
  const holder = schemaCacheFor(ctx.db);
  try {
    // The token is checked on every request, a remembered answer or not.
    const caller = authenticate(c.get('credentials'));
    checkMethod(resource, method);
    const answer = () => run(ctx, c, resource, caller, holder, templates);
    const tableRead = resource.kind === 'table' && (method === 'GET' || method === 'HEAD');
    const readCache = tableRead ? readCacheFor(ctx.db.writeClock) : null;
    return await (readCache ? cachedRead(readCache, c, answer) : (await answer()).response);
  } catch (error) {
    // The app's onError answers (restErrors); the next request should see a fresh cache.
    if (isPostgresError(error) && STALE_SQLSTATES.has(error.code)) {
      await holder.refreshIfChanged(c.get('db'));
    }
    throw error;
  }
}

/**
 * `/rest/v1`: the PostgREST subset supabase-js uses (supabase-compat.md §3), over the `public`
 * schema. Every request resolves its caller, then runs one generated statement in one
 * transaction as that caller, so row-level security and grants decide what it may see and do.
 */
export function createRestApp(ctx: AppContext): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  // Per app: a template depends on its API settings (`ctx.config.api`).
  const templates = new ReadTemplates();
  app.use('*', errorFormat(restErrors));
  app.on(['OPTIONS'], '*', (c) =>
    c.body(null, 200, { Allow: 'OPTIONS,GET,HEAD,POST,PATCH,DELETE' }),
  );
  app.all('/rpc/:fn', (c) => handle(ctx, c, { kind: 'rpc', name: c.req.param('fn') }, templates));
  app.all('/:table', (c) =>
    handle(ctx, c, { kind: 'table', name: c.req.param('table') }, templates),
  );
  app.all('*', (c) => {
    const root = c.req.path.replace(/\/+$/, '').endsWith('/rest/v1');
    const error = root
      ? new RestError(404, 'PGRST126', 'Root endpoint metadata is disabled')
      : new RestError(404, 'PGRST125', 'Invalid path specified in request URL');
    return error.toResponse(c);
  });
  return app;
}
