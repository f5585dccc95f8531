import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';

/**
 * One line per request: method, path, status, milliseconds. The query string is left out on
 * purpose: signed storage URLs carry their token there.
 */
export function requestLog(enabled: boolean): MiddlewareHandler {
  if (!enabled) return (_c, next) => next();
  return async (c, next) => {
    const started = performance.now();
    await next();
    logRequest(c.req.method, c.req.path, c.res.status, started);
  };
}

/** The request log's line for a request answered `status`, started at `started`. */
export function logRequest(method: string, path: string, status: number, started: number): void {
  const ms = (performance.now() - started).toFixed(1);
  process.stdout.write(`${method} ${path} ${status} ${ms}ms\n`);
}

/** Allowed request headers: those supabase-js sends (supabase-compat.md §1.3). */
const ALLOWED_HEADERS = [
  'authorization',
  'apikey',
  'content-type',
  'x-client-info',
  'x-supabase-api-version',
  'prefer',
  'accept-profile',
  'content-profile',
  'x-upsert',
  'cache-control',
  'x-metadata',
  'x-retry-count',
  'x-region',
  'range',
  'accept',
  // Resumable uploads (TUS)
  'tus-resumable',
  'upload-length',
  'upload-offset',
  'upload-metadata',
  'upload-defer-length',
  'upload-concat',
];
const EXPOSED_HEADERS = [
  'Content-Range',
  'X-Supabase-Api-Version',
  'X-Total-Count',
  'Link',
  'Content-Disposition',
  'ETag',
  'Location',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Expires',
];

/**
 * CORS for the API paths, so a browser on another origin (the Vite dev server, a hosted build)
 * can call them. Access is decided by tokens and row-level security, never by origin: every
 * origin is answered with itself.
 *
 * A browser's preflight (OPTIONS with `Access-Control-Request-Method`) is answered by Hono's
 * `cors`. Any other OPTIONS goes to its route without CORS headers, as on Supabase: TUS
 * discovery, PostgREST's `Allow`, an edge function's own handler.
 *
 * Every other request gets the headers Hono's `cors` would give it, but set on the route's
 * answer once it is made: `cors` sets them on `c.res` before the route runs and appends `Vary`
 * with `c.header` after, and either makes Hono copy the answer into a new undici `Response`
 * whose body @hono/node-server then streams, which cost about 100 µs of CPU per request (more
 * than everything else in front of a route together, measured with the bench's same-bytes
 * server). The Headers of the answer iterate sorted, so the bytes sent are the same.
 */
export function apiCors(): MiddlewareHandler {
  const preflight = cors({
    origin: (origin) => origin || '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 86400,
  });
  const exposed = EXPOSED_HEADERS.join(',');
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') {
      return c.req.header('access-control-request-method') ? preflight(c, next) : next();
    }
    const origin = c.req.header('origin') || '*';
    await next();
    const headers = c.res.headers;
    headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Expose-Headers', exposed);
    headers.append('Vary', 'Origin');
  };
}

/**
 * Hono's `secureHeaders` sends a dozen headers unless told not to; Steward's answers carry only
 * those a use of it names (none of these is needed by an API or a single-page app on one origin,
 * and HSTS belongs to whatever terminates TLS in front of this server).
 */
export const ONLY_NAMED_HEADERS = {
  crossOriginResourcePolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} satisfies Parameters<typeof secureHeaders>[0];

/**
 * Headers on every API answer (Hono's `secureHeaders`): nothing it returns is a page to render
 * or frame. A policy the answer already has (a stored file's, an app page's) is kept.
 */
export function apiSecurityHeaders(): MiddlewareHandler {
  return secureHeaders({
    ...ONLY_NAMED_HEADERS,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], sandbox: [] },
    xContentTypeOptions: true,
    referrerPolicy: 'strict-origin-when-cross-origin',
    overwrite: false,
  });
}

/**
 * What the API's middleware adds to every answer it does not make itself (CORS, the security
 * headers, `no-store`), in the order it runs: app.ts, and the read cache's front, which sends a
 * remembered answer with exactly these (rest/read-cache-front.ts).
 */
export function answerHeaders(): MiddlewareHandler[] {
  return [apiCors(), apiSecurityHeaders(), apiNoStore()];
}

/** API answers are not cached unless they say otherwise (a stored file's `cache-control`). */
export function apiNoStore(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  };
}
