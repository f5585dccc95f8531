import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { apiCors, apiNoStore, apiSecurityHeaders } from '../../server/http/middleware.ts';

/**
 * The middleware in front of every API route (CORS, security headers, no-store) adds its
 * headers to the route's own answer instead of copying it: Hono copies an answer into a new
 * undici Response, whose body @hono/node-server then streams, when a middleware writes headers
 * before the route runs (or through `c.header` after), and that copy cost more CPU than all the
 * rest in front of a route together (bench/RESULTS.md, "The stack in front of every route").
 */
function appAnswering(make: () => Response) {
  const seen: { route?: Response; sent?: Response } = {};
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    seen.sent = c.res;
  });
  app.use('*', apiCors(), apiSecurityHeaders(), apiNoStore());
  app.get('*', () => (seen.route = make()));
  app.post('*', () => {
    throw new Error('a route that fails');
  });
  app.onError((_error, c) => c.json({ message: 'failed' }, 500));
  return { app, seen };
}

describe('the API middleware', () => {
  it('sends the route’s answer itself, with the CORS and security headers added', async () => {
    const { app, seen } = appAnswering(
      () => new Response('{"a":1}', { headers: { 'Content-Type': 'application/json' } }),
    );
    const response = await app.request('/rest/v1/notes', {
      headers: { Origin: 'https://church.example' },
    });
    expect(seen.sent).toBe(seen.route);
    expect(Object.fromEntries(response.headers)).toEqual({
      'access-control-allow-origin': 'https://church.example',
      'access-control-expose-headers':
        'Content-Range,X-Supabase-Api-Version,X-Total-Count,Link,Content-Disposition,ETag,Location,Tus-Resumable,Tus-Version,Tus-Extension,Tus-Max-Size,Upload-Offset,Upload-Length,Upload-Metadata,Upload-Expires',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      'content-type': 'application/json',
      'referrer-policy': 'strict-origin-when-cross-origin',
      vary: 'Origin',
      'x-content-type-options': 'nosniff',
    });
    expect(await response.text()).toBe('{"a":1}');
  });

  it('keeps what the route said: its Vary, Cache-Control and policy', async () => {
    const { app } = appAnswering(
      () =>
        new Response('x', {
          headers: {
            Vary: 'Accept-Encoding',
            'Cache-Control': 'max-age=60',
            'Content-Security-Policy': "default-src 'none'",
          },
        }),
    );
    const response = await app.request('/storage/v1/object/public/a/b');
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(response.headers.get('cache-control')).toBe('max-age=60');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('adds the headers to an error’s answer too', async () => {
    const { app } = appAnswering(() => new Response('unused'));
    const response = await app.request('/rest/v1/notes', {
      method: 'POST',
      headers: { Origin: 'https://church.example' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://church.example');
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a browser’s preflight itself, and lets any other OPTIONS reach its route', async () => {
    const { app, seen } = appAnswering(() => new Response('unused'));
    const preflight = await app.request('/rest/v1/notes', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://church.example',
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization, prefer',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://church.example');
    expect(preflight.headers.get('access-control-allow-methods')).toBe(
      'GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS',
    );
    expect(preflight.headers.get('access-control-allow-headers')).toContain('prefer');
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');
    expect(seen.route).toBeUndefined();

    const other = await app.request('/rest/v1/notes', { method: 'OPTIONS' });
    expect(other.status).toBe(404);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
