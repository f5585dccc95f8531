import type { MiddlewareHandler } from 'hono';

/**
 * One line per request: method, path, status, milliseconds. The query string is left out on
 * purpose: signed storage URLs carry their token there.
 */
export function requestLog(enabled: boolean): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    if (!enabled) return;
    const ms = (performance.now() - started).toFixed(1);
    process.stdout.write(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms\n`);
  };
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
].join(', ');
const EXPOSED_HEADERS =
  'Content-Range, X-Supabase-Api-Version, X-Total-Count, Link, Content-Disposition, ETag, ' +
  'Location, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Upload-Offset, ' +
  'Upload-Length, Upload-Metadata, Upload-Expires';

/**
 * CORS for the API paths, so a browser on another origin (the Vite dev server, a hosted build)
 * can call them. Access is decided by tokens and row-level security, never by origin.
 */
export function apiCors(): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': origin ?? '*',
          'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
          'Access-Control-Allow-Headers': ALLOWED_HEADERS,
          'Access-Control-Max-Age': '86400',
          Vary: 'Origin',
        },
      });
    }
    await next();
    c.res.headers.set('Access-Control-Allow-Origin', origin ?? '*');
    c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    c.res.headers.append('Vary', 'Origin');
  };
}

/** Headers on every API response: nothing it returns is a page to render or frame. */
export function apiSecurityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (!headers.has('Content-Security-Policy')) {
      headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox");
    }
    if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  };
}
