import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../server/http/jwt.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rootDir } from '../support/template.ts';
import { accessTokenFor } from '../support/tokens.ts';

// One request's credentials are read once and every service answers from them, each with its
// own rules and its own error: PostgREST and Storage take `Authorization: Bearer …` or else
// `apikey`, and refuse roles the database lacks; GoTrue and the functions gateway take only the
// bearer token, and look at nothing but its signature and expiry.

const fixtures = path.join(rootDir, 'tests', 'fixtures', 'functions');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    schema: 'platform',
    env: { FUNCTIONS_DIR: fixtures, SUPABASE_DIR: path.dirname(fixtures) },
  });
  await server.db
    .serverWork()
    .exec(`create function whoami() returns text language sql as 'select current_user::text'`);
});
afterAll(async () => {
  await server?.close();
});

interface Answer {
  status: number;
  body: unknown;
}

type Service = 'rest' | 'storage' | 'functions' | 'authUser' | 'authAdmin';

/** The same credentials sent to one endpoint of each service. */
async function askEveryService(headers: Record<string, string>): Promise<Record<Service, Answer>> {
  const ask = async (pathAndQuery: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await fetch(`${server.url}${pathAndQuery}`, {
      ...init,
      headers: { ...headers, ...(init.headers as Record<string, string>) },
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  const json = { 'content-type': 'application/json' };
  return {
    rest: await ask('/rest/v1/rpc/whoami', { method: 'POST', headers: json, body: '{}' }),
    storage: await ask('/storage/v1/bucket'),
    functions: await ask('/functions/v1/echo', { method: 'POST', headers: json, body: '{}' }),
    authUser: await ask('/auth/v1/user', { headers: { 'x-supabase-api-version': '2024-01-01' } }),
    authAdmin: await ask('/auth/v1/admin/users', {
      method: 'POST',
      headers: { ...json, 'x-supabase-api-version': '2024-01-01' },
      body: '{}',
    }),
  };
}

describe('one set of credentials, four services', () => {
  it('an apikey alone is the anonymous caller for REST and storage, and no token for auth and functions', async () => {
    const answers = await askEveryService({ apikey: server.keys.anonKey });
    expect(answers.rest).toEqual({ status: 200, body: 'anon' });
    expect(answers.storage.status).toBe(200);
    expect(answers.functions).toEqual({
      status: 401,
      body: { code: 401, message: 'Missing authorization header' },
    });
    const noAuthorization = {
      status: 401,
      body: { code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' },
    };
    expect(answers.authUser).toEqual(noAuthorization);
    expect(answers.authAdmin).toEqual(noAuthorization);
  });

  it('an Authorization header that is not Bearer falls back to the apikey only where Supabase does', async () => {
    const answers = await askEveryService({
      apikey: server.keys.anonKey,
      authorization: 'Basic dXNlcjpwYXNz',
    });
    expect(answers.rest).toEqual({ status: 200, body: 'anon' });
    expect(answers.storage.status).toBe(200);
    expect(answers.functions).toEqual({
      status: 401,
      body: { code: 401, message: "Auth header is not 'Bearer {token}'" },
    });
    expect(answers.authUser.status).toBe(401);
    expect(answers.authUser.body).toMatchObject({ code: 'no_authorization' });
  });

  it('a signed token whose role the database lacks is refused by REST and storage only', async () => {
    const token = accessTokenFor(server, undefined, { role: 'postgres' });
    const answers = await askEveryService({
      apikey: server.keys.anonKey,
      authorization: `Bearer ${token}`,
    });
    expect(answers.rest).toMatchObject({
      status: 401,
      body: { code: '22023', message: 'role "postgres" does not exist' },
    });
    expect(answers.storage).toEqual({
      status: 400,
      body: {
        statusCode: '403',
        code: 'AccessDenied',
        error: 'Unauthorized',
        message: 'role "postgres" does not exist',
      },
    });
    expect(answers.functions.status).toBe(200);
    expect(answers.authAdmin).toEqual({
      status: 403,
      body: { code: 'not_admin', message: 'User not allowed' },
    });
  });

  it('an expired token gets each service’s own refusal', async () => {
    const token = accessTokenFor(server, undefined, { exp: Math.floor(Date.now() / 1000) - 120 });
    const answers = await askEveryService({
      apikey: server.keys.anonKey,
      authorization: `Bearer ${token}`,
    });
    expect(answers.rest).toEqual({
      status: 401,
      body: { code: 'PGRST303', message: 'JWT expired', details: null, hint: null },
    });
    expect(answers.storage).toEqual({
      status: 400,
      body: {
        statusCode: '403',
        code: 'AccessDenied',
        error: 'Unauthorized',
        message: 'token has invalid claims: token is expired',
      },
    });
    expect(answers.functions).toEqual({ status: 401, body: { code: 401, message: 'Invalid JWT' } });
    expect(answers.authUser).toEqual({
      status: 403,
      body: {
        code: 'bad_jwt',
        message:
          'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
      },
    });
  });

  it('a token signed with another secret is refused everywhere, the second time as the first', async () => {
    const forged = signJwt({ role: 'service_role' }, 'another secret of sufficient length!!');
    const headers = { apikey: server.keys.anonKey, authorization: `Bearer ${forged}` };
    for (const answers of [await askEveryService(headers), await askEveryService(headers)]) {
      expect(answers.rest).toMatchObject({
        status: 401,
        body: { code: 'PGRST301', message: 'JWT cryptographic operation failed' },
      });
      expect(answers.storage.status).toBe(400);
      expect(answers.storage.body).toMatchObject({ code: 'AccessDenied' });
      expect(answers.functions).toEqual({
        status: 401,
        body: { code: 401, message: 'Invalid JWT' },
      });
      expect(answers.authAdmin.status).toBe(403);
      expect(answers.authAdmin.body).toMatchObject({ code: 'bad_jwt' });
    }
  });

  it('the service-role key is the service role everywhere, the second time as the first', async () => {
    const headers = {
      apikey: server.keys.anonKey,
      authorization: `Bearer ${server.keys.serviceRoleKey}`,
    };
    for (const answers of [await askEveryService(headers), await askEveryService(headers)]) {
      expect(answers.rest).toEqual({ status: 200, body: 'service_role' });
      expect(answers.storage.status).toBe(200);
      expect(answers.functions.status).toBe(200);
      // Past the admin check: the empty body is what is wrong now.
      expect(answers.authAdmin).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      });
    }
  });
});
