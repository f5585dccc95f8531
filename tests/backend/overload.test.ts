import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { accessTokenFor } from '../support/tokens.ts';

// When the database gives a request no turn within its deadline, each service says so in its
// own format: 503 with Retry-After. PGlite is one session, so a member's long statement makes
// the others wait; PostgreSQL has a pool of connections and serves them at once.
describe('a database with no turn to give', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      schema: 'platform',
      // Auth and storage run as the service role: their turn must come within 2 s, well before
      // the member's statement (8 s) ends.
      env: { STATEMENT_TIMEOUT_AUTHENTICATED: '8s', STATEMENT_TIMEOUT_SERVICE_ROLE: '2s' },
    });
    await server.db.serverWork().exec(`
      create function slow(seconds float8) returns int language sql
        as $$ select 1 from pg_sleep(seconds) $$;
      grant execute on function slow(float8) to authenticated;
    `);
  });
  afterAll(() => server?.close());

  it('has auth and storage answer 503 with Retry-After, each in its own format', async () => {
    const member = accessTokenFor(server);
    const stranger = accessTokenFor(server, randomUUID());
    const asking = (token: string) => ({
      apikey: server.keys.anonKey,
      authorization: `Bearer ${token}`,
    });
    const buckets = () =>
      fetch(`${server.url}/storage/v1/bucket`, { headers: asking(server.keys.serviceRoleKey) });
    const user = () =>
      fetch(`${server.url}/auth/v1/user`, {
        headers: { ...asking(stranger), 'x-supabase-api-version': '2024-01-01' },
      });
    // Each service has reached the database once: what follows waits only for a turn.
    expect((await buckets()).status).toBe(200);
    expect((await user()).status).toBe(403);

    const sleep = (seconds: number) =>
      fetch(`${server.url}/rest/v1/rpc/slow`, {
        method: 'POST',
        headers: { ...asking(member), 'content-type': 'application/json' },
        body: JSON.stringify({ seconds }),
      });
    // REST too (its schema cache is loaded), so the long statement starts at once.
    expect((await sleep(0)).status).toBe(200);

    const slow = sleep(60);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [storage, auth] = await Promise.all([buckets(), user()]);

    if (server.db.kind === 'pglite') {
      expect(storage.status).toBe(503);
      expect(storage.headers.get('retry-after')).toBe('1');
      expect(await storage.json()).toEqual({
        statusCode: '503',
        code: 'SlowDown',
        error: 'Service Unavailable',
        message: 'Please reduce your request rate',
      });
      expect(auth.status).toBe(503);
      expect(auth.headers.get('retry-after')).toBe('1');
      expect(auth.headers.get('x-sb-error-code')).toBe('over_request_rate_limit');
      expect(await auth.json()).toEqual({
        code: 'over_request_rate_limit',
        message: 'the database is busy, please try again in a moment',
      });
    } else {
      expect(storage.status).toBe(200);
      expect(auth.status).toBe(403);
    }
    expect((await slow).status).toBe(500);
  });
});
