import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context.ts';
import { readCredentials } from '../http/credentials.ts';
import { logRequest } from '../http/middleware.ts';
import type { CachedAnswer } from './read-cache.ts';
import { ReadCache, readCacheFor, responseOf } from './read-cache.ts';

/** Hono's `fetch`, as @hono/node-server calls it (`env.incoming`: the Node request). */
type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/** What a remembered answer is sent as: its status, every header as sent, and its body. */
interface Sent {
  status: number;
  headers: Record<string, string | number>;
  body: Uint8Array | null;
}

const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * A header of the request as `Headers.get` gives it (every value of the name, trimmed, joined
 * with ", "), read from Node's `rawHeaders` without building a `Headers` of the request.
 */
function rawHeader(rawHeaders: readonly string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.length !== name.length || rawHeaders[i]!.toLowerCase() !== name) continue;
    const one = rawHeaders[i + 1]!.replace(HTTP_WHITESPACE, '');
    value = value === null ? one : `${value}, ${one}`;
  }
  return value;
}

/**
 * Answers a repeated table read from PGlite's read cache before Hono runs (`server.ts` serves
 * this in front of the app), with the very answer the app would send: the same token check,
 * the same entry of the same cache under its freshness rules, and the headers the API's
 * middleware adds, taken once per entry by running that middleware itself (`answerHeaders`)
 * around the remembered answer. A hit then costs 1.2 × the same bytes sent through the Hono
 * stack; through Hono's routing and the REST route it cost 2–2.5 × (bench/RESULTS.md). Everything
 * else, and every request this cannot answer byte for byte, goes on to `fetch`: other methods
 * and paths, a token that does not stand for a caller (the app answers PostgREST's 401), and
 * a miss. A hit takes no turn of the database in either path.
 *
 * Null when the database has no read cache (PostgreSQL): the app alone serves.
 */
export function readCacheFront(
  ctx: AppContext,
  answerHeaders: () => MiddlewareHandler[],
): ((fetch: Fetch) => Fetch) | null {
  const cache = readCacheFor(ctx.db.writeClock);
  if (!cache) return null;
  const { jwtSecret } = ctx.keys;
  const log = ctx.config.logRequests;
  // The API's own middleware around a remembered answer, to take the headers it adds.
  const headersApp = new Hono<{ Bindings: { answer: CachedAnswer } }>();
  headersApp.use('*', ...answerHeaders());
  headersApp.all('*', (c) => responseOf(c.env.answer));
  const sentOf = new WeakMap<CachedAnswer, Sent | null>();

  async function sending(answer: CachedAnswer, method: string, origin: string | null) {
    const response = await headersApp.fetch(
      new Request('http://front/', { method, headers: origin === null ? {} : { origin } }),
      { answer },
    );
    const headers: Sent['headers'] = {};
    for (const [name, value] of response.headers) headers[name] = value;
    // What @hono/node-server adds when it sends an answer of the app; any answer it would
    // treat otherwise is left to the app.
    if (response.headers.has('set-cookie') || response.status !== answer.status) return null;
    if (answer.body !== null) {
      if (!('content-type' in headers)) return null;
      if (!('content-length' in headers)) headers['Content-Length'] = answer.body.byteLength;
    }
    return { status: answer.status, headers, body: answer.body };
  }

  return (fetch) => (request, env) => {
    const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const method = request.method;
    if (
      !incoming ||
      (method !== 'GET' && method !== 'HEAD') ||
      !incoming.url?.startsWith('/rest/v1/')
    ) {
      return fetch(request, env);
    }
    const started = log ? performance.now() : 0;
    const raw = incoming.rawHeaders;
    // The token is checked on every request, as the app checks it.
    const credentials = readCredentials({ get: (name) => rawHeader(raw, name) }, jwtSecret);
    if (!credentials.caller.ok) return fetch(request, env);
    const answer = cache.get(ReadCache.keyOf(method, request.url, raw));
    if (!answer) return fetch(request, env);
    const sent = sentOf.get(answer);
    if (sent === undefined) {
      // Once per entry: the headers are the middleware's, for this answer and this origin
      // (the origin is part of the entry's key, so it is the same on every hit).
      return sending(answer, method, rawHeader(raw, 'origin')).then((made) => {
        sentOf.set(answer, made);
        return made ? respond(made) : fetch(request, env);
      });
    }
    if (sent === null) return fetch(request, env);
    return respond(sent);

    function respond({ status, headers, body }: Sent): Response {
      if (log) logRequest(method, getPath(request), status, started);
      return new Response(body as BodyInit | null, { status, headers: headers as HeadersInit });
    }
  };
}
