import { isAuthError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, authRequest, uniqueEmail } from './auth-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
});
afterAll(async () => {
  await server?.close();
});

describe('errors and bad requests', () => {
  it('uses the legacy body when X-Supabase-Api-Version is absent', async () => {
    const body = { email: uniqueEmail('legacy'), password: 'wrong password' };
    const legacy = await authRequest(server, '/token?grant_type=password', {
      body,
      apiVersion: false,
    });
    expect(legacy.status).toBe(400);
    expect(legacy.headers.get('x-supabase-api-version')).toBeNull();
    expect(legacy.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(legacy.body).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });

    const dated = await authRequest(server, '/token?grant_type=password', { body });
    expect(dated.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(dated.body).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    // Browsers may read the echoed header: CORS exposes it.
    expect(dated.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
  });

  it('answers a body that is not a JSON object with bad_json, never a 500', async () => {
    for (const body of ['{"email": ', '', '[1, 2]', '"text"', '{"email": 42, "password": "x"}']) {
      const response = await authRequest(server, '/signup', { body, method: 'POST' });
      expect(response.status, body).toBe(400);
      expect(response.body!.code, body).toBe('bad_json');
      expect(response.body!.message as string).toMatch(/^Could not parse request body as JSON: /);
    }
    const data = await authRequest(server, '/signup', {
      body: { email: uniqueEmail('data'), password: PASSWORD, data: 'not an object' },
    });
    expect(data.status).toBe(400);
    expect(data.body!.code).toBe('bad_json');
  });

  it('refuses a body over 64 KB with 413', async () => {
    const response = await authRequest(server, '/signup', {
      body: { email: uniqueEmail('big'), password: PASSWORD, data: { blob: 'x'.repeat(70_000) } },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      code: 'request_entity_too_large',
      message: 'Request body too large (max 65536 bytes)',
    });
  });

  it('answers a wrong method with 405 and an unknown path with 404', async () => {
    const getSignup = await authRequest(server, '/signup');
    expect(getSignup.status).toBe(405);
    expect(getSignup.headers.get('allow')).toBe('POST');
    expect(getSignup.body!.code).toBe('method_not_allowed');
    const deleteUser = await authRequest(server, '/user', { method: 'DELETE' });
    expect(deleteUser.status).toBe(405);
    expect(deleteUser.headers.get('allow')).toBe('GET, PUT');
    const unknown = await authRequest(server, '/magiclink', { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body!.code).toBe('not_found');
  });

  it('serves /settings and /health', async () => {
    const settings = await authRequest(server, '/settings');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      external: { email: true, phone: false, anonymous_users: false, google: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      saml_enabled: false,
      passkeys_enabled: false,
    });
    const health = await authRequest(server, '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ name: 'GoTrue' });
  });

  it('reports errors through supabase-js with their codes', async () => {
    const { error } = await server
      .anon()
      .auth.signInWithPassword({ email: uniqueEmail('js'), password: 'nope nope' });
    expect(isAuthError(error)).toBe(true);
    expect(error!.code).toBe('invalid_credentials');
  });
});
