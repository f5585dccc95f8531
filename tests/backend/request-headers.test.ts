import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { accessTokenFor } from '../support/tokens.ts';

// What a policy or function reads in `request.headers` follows one rule in REST and storage:
// every request header, its name lower-cased, except `cookie` (PostgREST's rule).

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  token = accessTokenFor(server);
  await server.db.serverWork().exec(`
    create function request_headers() returns jsonb language sql stable as
      $$ select current_setting('request.headers', true)::jsonb $$;

    create table seen_headers (id bigint generated always as identity primary key, headers jsonb);
    create function remember_headers() returns trigger language plpgsql security definer
      set search_path = '' as $$
    begin
      insert into public.seen_headers (headers)
        values (current_setting('request.headers', true)::jsonb);
      return new;
    end $$;
    create trigger remember_headers before insert on storage.objects
      for each row execute function remember_headers();

    insert into storage.buckets (id, name, public) values ('probe', 'probe', false);
    create policy "users add probes" on storage.objects for insert to authenticated
      with check (bucket_id = 'probe');
  `);
});

afterAll(async () => {
  await server?.close();
});

const sent = () => ({
  apikey: server.keys.anonKey,
  Authorization: `Bearer ${token}`,
  'X-Probe': 'Yes Please',
  Cookie: 'session=not-for-the-database',
});

async function seenByRest(): Promise<Record<string, string>> {
  const response = await fetch(`${server.url}/rest/v1/rpc/request_headers`, {
    method: 'POST',
    headers: { ...sent(), 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, string>;
}

async function seenByStorage(name: string): Promise<Record<string, string>> {
  const response = await fetch(`${server.url}/storage/v1/object/probe/${name}`, {
    method: 'POST',
    headers: { ...sent(), 'Content-Type': 'text/plain' },
    body: 'probe',
  });
  expect(response.status).toBe(200);
  const { rows } = await server.db
    .serverWork()
    .query<{ headers: Record<string, string> }>(
      'select headers from seen_headers order by id desc limit 1',
    );
  return rows[0]!.headers;
}

describe('request.headers', () => {
  it.each([
    ['REST', () => seenByRest()],
    ['storage', () => seenByStorage('one.txt')],
  ])('in %s holds every header but cookies, names lower-cased', async (_service, seen) => {
    const headers = await seen();
    expect(headers).toMatchObject({
      'x-probe': 'Yes Please',
      authorization: `Bearer ${token}`,
      apikey: server.keys.anonKey,
    });
    expect(headers).not.toHaveProperty('cookie');
    for (const name of Object.keys(headers)) expect(name).toBe(name.toLowerCase());
  });

  it('is the same in REST and storage for the same request headers', async () => {
    const rest = await seenByRest();
    const storage = await seenByStorage('two.txt');
    // What differs is the request itself (its body's type and length), not the rule.
    const common = (headers: Record<string, string>) =>
      Object.keys(headers)
        .filter((name) => !name.startsWith('content-'))
        .sort();
    expect(common(storage)).toEqual(common(rest));
  });
});
