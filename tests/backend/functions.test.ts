import { FunctionsHttpError } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionSecret } from '../../server/functions/secrets.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rootDir } from '../support/template.ts';
import { accessTokenFor, clientWithToken } from '../support/tokens.ts';
import { scratchDir } from '../support/scratch.ts';

const fixtures = path.join(rootDir, 'tests', 'fixtures', 'functions');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    schema: 'platform',
    env: {
      FUNCTIONS_DIR: fixtures,
      SUPABASE_DIR: path.dirname(fixtures),
      AUTH_SITE_URL: 'https://office.example.org',
      AUTH_ADDITIONAL_REDIRECT_URLS: 'https://a.example.org,https://b.example.org',
      OAUTH_ALLOWED_HOSTS: 'auth.example.org,127.0.0.1:9000',
    },
  });
});
afterAll(async () => {
  await server?.close();
});

const functionUrl = (name: string) => `${server.url}/functions/v1/${name}`;

/** The status and body of a non-2xx answer, as the app reads them from `error.context`. */
async function failure(error: unknown): Promise<{ status: number; body: unknown }> {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  return { status: response.status, body: await response.json() };
}

describe('functions: requests reach the handler as on Supabase', () => {
  it('passes a JSON body, the path from the function name on and the caller token', async () => {
    const { data, error } = await server.anon().functions.invoke('echo', { body: { a: 1 } });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      method: 'POST',
      path: '/echo',
      contentType: 'application/json',
      authorization: `Bearer ${server.keys.anonKey}`,
      body: { a: 1 },
    });
  });

  it('passes a text body', async () => {
    const { data } = await server.anon().functions.invoke('echo', { body: 'hello there' });
    expect(data).toMatchObject({ contentType: 'text/plain', body: 'hello there' });
  });

  it('passes binary bodies both ways', async () => {
    const { data, error } = await server
      .anon()
      .functions.invoke('echo/binary', { body: new Blob([new Uint8Array([1, 2, 3, 250])]) });
    expect(error).toBeNull();
    expect(data).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await (data as Blob).arrayBuffer())]).toEqual([250, 3, 2, 1]);
  });

  it('passes GET with a sub-path, the query and custom headers', async () => {
    const { data } = await server.anon().functions.invoke('echo/sub/path?x=1&y=two', {
      method: 'GET',
      headers: { 'x-custom': 'value' },
    });
    expect(data).toMatchObject({
      method: 'GET',
      path: '/echo/sub/path',
      query: { x: '1', y: 'two' },
      custom: 'value',
    });
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('passes %s', async (method) => {
    const { data } = await server.anon().functions.invoke('echo', { method, body: { m: method } });
    expect(data).toMatchObject({ method, body: { m: method } });
  });

  it('passes a plain OPTIONS to the handler; browser preflights are answered for it', async () => {
    const plain = await fetch(functionUrl('echo'), { method: 'OPTIONS' });
    expect(await plain.json()).toMatchObject({ method: 'OPTIONS' });
    const preflight = await fetch(functionUrl('echo'), {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, apikey, content-type, x-client-info',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-client-info');
  });

  it('returns text responses as text and keeps status codes and headers', async () => {
    const text = await server.anon().functions.invoke('echo/text', { body: {} });
    expect(text.data).toBe('text from POST');

    const { data, error, response } = await server.anon().functions.invoke('echo/status/418');
    expect(data).toBeNull();
    expect(await failure(error)).toEqual({ status: 418, body: { error: 'status 418' } });
    expect(response?.headers.get('x-echo')).toBe('status');
  });

  it('builds the handler once, with the server URL and keys and nothing of its own environment', async () => {
    const first = await server.anon().functions.invoke('echo/env');
    const second = await server.anon().functions.invoke('echo/env');
    expect(first.data).toEqual({
      env: {
        SUPABASE_URL: server.url,
        SUPABASE_ANON_KEY: server.keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: server.keys.serviceRoleKey,
      },
      builtAt: expect.any(String),
    });
    expect(second.data.builtAt).toBe(first.data.builtAt);
  });

  it('lets a handler call the server back through SUPABASE_URL', async () => {
    const { data } = await server.anon().functions.invoke('echo/config');
    expect(data).toEqual({
      status: 200,
      config: { supabaseUrl: expect.any(String), supabaseAnonKey: server.keys.anonKey },
    });
  });
});

describe('functions: JWT verification', () => {
  it('requires a token by default', async () => {
    const response = await fetch(functionUrl('echo'), { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 401, message: 'Missing authorization header' });
  });

  it('refuses a token it did not sign, an expired one and a non-Bearer header', async () => {
    const forged = accessTokenFor({
      ...server,
      keys: { ...server.keys, jwtSecret: 'x'.repeat(40) },
    });
    const expired = accessTokenFor(server, randomUUID(), {
      exp: Math.floor(Date.now() / 1000) - 120,
    });
    for (const authorization of [`Bearer ${forged}`, `Bearer ${expired}`, 'Bearer not-a-jwt']) {
      const response = await fetch(functionUrl('echo'), {
        method: 'POST',
        headers: { authorization },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 401, message: 'Invalid JWT' });
    }
    const basic = await fetch(functionUrl('echo'), {
      method: 'POST',
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(401);
  });

  it("passes a signed-in user's token through to the handler", async () => {
    const token = accessTokenFor(server, randomUUID());
    const { data } = await clientWithToken(server, token).functions.invoke('echo', { body: {} });
    expect(data).toMatchObject({ authorization: `Bearer ${token}` });
  });

  it('serves a function with verify_jwt = false without a token', async () => {
    const response = await fetch(functionUrl('open'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ open: true, authorization: null });
  });
});

describe('functions: errors', () => {
  it('answers 404 for unknown functions, shared folders and folders without handler.ts', async () => {
    for (const name of ['nope', '_private', 'no-handler', '_shared', '', 'echo%2Fsub']) {
      const response = await fetch(functionUrl(name), {
        method: 'POST',
        headers: { authorization: `Bearer ${server.keys.anonKey}` },
      });
      expect(response.status, name).toBe(404);
      expect(await response.json()).toEqual({
        code: 'NOT_FOUND',
        message: 'Requested function was not found',
      });
    }
  });

  it('turns a throwing handler into 500 WORKER_ERROR and keeps serving', async () => {
    for (const name of ['boom', 'boom/not-a-response']) {
      const { error } = await server.anon().functions.invoke(name, { body: {} });
      expect(await failure(error)).toEqual({
        status: 500,
        body: {
          code: 'WORKER_ERROR',
          message: 'Function exited due to an error (please check logs)',
        },
      });
    }
    const { data } = await server.anon().functions.invoke('echo', { body: { still: 'here' } });
    expect(data).toMatchObject({ body: { still: 'here' } });
  });

  it('answers 503 BOOT_ERROR for a function that cannot be built', async () => {
    const { error } = await server.anon().functions.invoke('broken-boot');
    expect(await failure(error)).toEqual({
      status: 503,
      body: { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' },
    });
  });

  it('refuses bodies over 10 MiB and methods it does not relay', async () => {
    const tooLarge = await fetch(functionUrl('echo'), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.keys.anonKey}` },
      body: new Uint8Array(10 * 1024 * 1024 + 1),
    });
    expect(tooLarge.status).toBe(413);
    const propfind = await fetch(functionUrl('echo'), {
      method: 'PROPFIND',
      headers: { authorization: `Bearer ${server.keys.anonKey}` },
    });
    expect(propfind.status).toBe(405);
  });
});

describe('functions: generated secrets', () => {
  it("gives the oauth function the installation's addresses and allowed hosts from its configuration", async () => {
    const { data } = await server.anon().functions.invoke('oauth');
    expect(data.settings).toEqual({
      SITE_URL: 'https://office.example.org',
      ADDITIONAL_REDIRECT_URLS: 'https://a.example.org,https://b.example.org',
      OAUTH_ALLOWED_HOSTS: 'auth.example.org,127.0.0.1:9000',
    });
  });

  it('gives the oauth function OAUTH_TOKEN_KEY, kept in DATA_DIR with mode 0600', async () => {
    const { data } = await server.anon().functions.invoke('oauth');
    const file = path.join(server.dataDir, 'function-secrets', 'oauth');
    expect((await readFile(file, 'utf8')).trim()).toBe(data.key);
    expect(Buffer.from(data.key, 'base64url')).toHaveLength(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await functionSecret(server.dataDir, 'oauth')).toBe(data.key);
  });

  it('functionSecret makes one 256-bit secret per name and keeps it', async () => {
    const dataDir = await scratchDir('steward-secrets-');
    try {
      const first = await functionSecret(dataDir, 'alpha');
      expect(await functionSecret(dataDir, 'alpha')).toBe(first);
      expect(await functionSecret(dataDir, 'beta')).not.toBe(first);
      expect(Buffer.from(first, 'base64url')).toHaveLength(32);
      await expect(functionSecret(dataDir, '../escape')).rejects.toThrow(/invalid/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('functions: no functions at all', () => {
  it('starts without a functions directory and answers 404', async () => {
    const bare = await startTestServer({
      schema: 'platform',
      env: { FUNCTIONS_DIR: path.join(os.tmpdir(), `steward-no-functions-${randomUUID()}`) },
    });
    try {
      const response = await fetch(`${bare.url}/functions/v1/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bare.keys.anonKey}` },
      });
      expect(response.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
