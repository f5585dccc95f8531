import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganisation, unwrap, type Organisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Every request's database work has a deadline by role (issue 11): on PostgreSQL the
// statement_timeout Supabase sets per role; on PGlite, which cannot interrupt a statement, a
// deadline kept by the main thread that ends the database worker and opens the data directory
// again. Meanwhile the thread that serves HTTP keeps answering.
describe('deadlines', () => {
  let server: TestServer;
  let org: Organisation;

  beforeAll(async () => {
    server = await startTestServer({
      env: { STATEMENT_TIMEOUT_AUTHENTICATED: '2s', STATEMENT_TIMEOUT_ANON: '500ms' },
    });
    // Functions a member can call that take as long as they are told to (the app has none).
    await server.db.serverWork().exec(`
      create table public.deadline_marks (id serial primary key, label text not null);
      alter table public.deadline_marks enable row level security;
      create policy "members read marks" on public.deadline_marks for select to authenticated using (true);
      create function public.slow(seconds float8) returns int language sql
        as $$ select 1 from pg_sleep(seconds) $$;
      create function public.mark_then_sleep(label text, seconds float8) returns int
        language plpgsql security definer set search_path = '' as $$
        begin
          insert into public.deadline_marks (label) values (label);
          perform pg_sleep(seconds);
          return 1;
        end $$;
      grant execute on function public.slow(float8) to anon, authenticated;
      grant execute on function public.mark_then_sleep(text, float8) to authenticated;
    `);
    org = await createOrganisation(server, 'Deadline Church');
  });
  afterAll(() => server?.close());

  it('ends a statement that runs past its role’s deadline with Postgres’ timeout error', async () => {
    const { error, status } = await org.master.client.rpc('slow', { seconds: 60 });
    expect(error?.code).toBe('57014');
    expect(error?.message).toBe('canceling statement due to statement timeout');
    expect(status).toBe(500);
    // The database serves the next request.
    const next = await org.master.client.from('organizations').select('name').single();
    expect(unwrap(next, 'read after the timeout')).toEqual({ name: 'Deadline Church' });
  });

  it('rolls back the work of a statement it ended, and keeps what was committed', async () => {
    await server.db
      .serverWork()
      .query(`insert into public.deadline_marks (label) values ('committed')`);
    const { error } = await org.master.client.rpc('mark_then_sleep', {
      label: 'cut off',
      seconds: 60,
    });
    expect(error?.code).toBe('57014');
    const marks = await org.master.client.from('deadline_marks').select('label').order('id');
    expect(unwrap(marks, 'marks')).toEqual([{ label: 'committed' }]);
  });

  it('answers /config.json while a long statement runs', async () => {
    let slowDone = false;
    const slow = org.master.client.rpc('slow', { seconds: 60 }).then((result) => {
      slowDone = true;
      return result;
    });
    // Let the slow call reach the database before asking for the configuration.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const config = await fetch(`${server.url}/config.json`);
    expect(config.status).toBe(200);
    expect(slowDone).toBe(false);
    expect((await slow).error?.code).toBe('57014');
  });

  it('answers 503 with Retry-After to a caller who cannot get a turn within its own deadline (PGlite)', async () => {
    // PGlite is one session: an anonymous caller (500 ms) queued behind a member's statement
    // (2 s) is told to come back rather than kept waiting. PostgreSQL has a pool of
    // connections, so there the anonymous caller is served at once.
    // A first quick call: the database is ready and the function is in the schema cache.
    expect((await org.master.client.rpc('slow', { seconds: 0 })).error).toBeNull();
    // supabase-js sends a request when it is awaited or `then` is called: start it now.
    const slow = org.master.client.rpc('slow', { seconds: 60 }).then((result) => result);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const anonymous = await fetch(`${server.url}/rest/v1/rpc/slow`, {
      method: 'POST',
      headers: { apikey: server.keys.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds: 0 }),
    });
    if (server.db.kind === 'pglite') {
      expect(anonymous.status).toBe(503);
      expect(anonymous.headers.get('retry-after')).toBe('1');
      expect(await anonymous.json()).toMatchObject({ code: '57P03' });
    } else {
      expect(anonymous.status).toBe(200);
    }
    expect((await slow).error?.code).toBe('57014');
  });
});
