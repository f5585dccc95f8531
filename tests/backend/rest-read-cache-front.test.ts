import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../server/http/jwt.ts';
import { readCacheFor } from '../../server/rest/read-cache.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * On PGlite a repeated table read is answered from the read cache before Hono runs
 * (server/rest/read-cache-front.ts). What the client receives must not tell which path
 * answered: the bytes on the wire of a repeated read are those of the first, which the app
 * answered, for every shape of request, and the token is checked on every one. (PostgreSQL has
 * no cache: there both reads run in the database, and the bytes are the same too.) The
 * freshness rules of the cache are tested through the API in rest-read-cache.test.ts.
 */
let server: TestServer;
let host: string;
let port: number;
const OWNER = '11111111-1111-4111-8111-111111111111';

/** The raw answer to `request` (request line and headers), on a connection of its own. */
function rawAnswer(requestLine: string, headers: [string, string][]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    const lines = [requestLine, `Host: ${host}:${port}`, ...headers.map(([n, v]) => `${n}: ${v}`)];
    socket.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
  });
}

/** An answer's bytes without its `Date` header, the one part that may differ between two. */
const withoutDate = (answer: string) => answer.replace(/\r\nDate: [^\r]*/, '');

function tokenFor(sub: string, exp = Math.floor(Date.now() / 1000) + 3600): string {
  return signJwt(
    { aud: 'authenticated', role: 'authenticated', sub, iat: exp - 3600, exp },
    server.keys.jwtSecret,
  );
}

const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms - Date.now()));

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  const url = new URL(server.url);
  host = url.hostname;
  port = Number(url.port);
  await server.db.serverWork().exec(`
    create table public.front_notes (
      id int primary key, owner uuid not null, title text not null);
    alter table public.front_notes enable row level security;
    create policy front_notes_own on public.front_notes for select to authenticated
      using ((select auth.uid()) = owner);
    grant select on public.front_notes to authenticated;
    insert into public.front_notes
      select i, case when i % 2 = 0 then '${OWNER}'::uuid else gen_random_uuid() end,
             'Ünïcode note ' || i
      from generate_series(1, 20) i;
  `);
});
afterAll(() => server?.close());

describe('a repeated table read', () => {
  const path = '/rest/v1/front_notes?select=id,title&order=id.desc';

  it('is sent byte for byte as the first was, for every shape of read', async () => {
    const token = tokenFor(OWNER);
    const auth: [string, string][] = [
      ['Authorization', `Bearer ${token}`],
      ['apikey', server.keys.anonKey],
    ];
    const shapes: { name: string; line: string; headers: [string, string][] }[] = [
      { name: 'plain', line: `GET ${path} HTTP/1.1`, headers: auth },
      {
        name: 'from another origin',
        line: `GET ${path} HTTP/1.1`,
        headers: [...auth, ['Origin', 'https://church.example']],
      },
      { name: 'HEAD', line: `HEAD ${path} HTTP/1.1`, headers: auth },
      {
        name: 'a range, counted',
        line: `GET ${path} HTTP/1.1`,
        headers: [...auth, ['Range', '2-4'], ['Prefer', 'count=exact']],
      },
      {
        name: 'one object',
        line: `GET ${path}&id=eq.4 HTTP/1.1`,
        headers: [...auth, ['Accept', 'application/vnd.pgrst.object+json']],
      },
      {
        name: 'CSV',
        line: `GET ${path} HTTP/1.1`,
        headers: [...auth, ['Accept', 'text/csv']],
      },
    ];
    for (const shape of shapes) {
      const first = await rawAnswer(shape.line, shape.headers);
      expect(first, shape.name).toMatch(/^HTTP\/1\.1 20[06] /);
      for (let i = 0; i < 3; i++) {
        expect(withoutDate(await rawAnswer(shape.line, shape.headers)), shape.name).toBe(
          withoutDate(first),
        );
      }
    }
    // On PGlite the repeated reads came from the cache.
    const cache = readCacheFor(server.db.writeClock);
    if (server.db.kind === 'pglite') expect(cache?.size).toBeGreaterThanOrEqual(shapes.length);
    else expect(cache).toBeNull();
  });

  it('checks the token every time: the same read with a token that does not verify is refused', async () => {
    const headers = (token: string): [string, string][] => [
      ['Authorization', `Bearer ${token}`],
      ['apikey', server.keys.anonKey],
    ];
    const good = await rawAnswer(`GET ${path} HTTP/1.1`, headers(tokenFor(OWNER)));
    expect(good).toMatch(/^HTTP\/1\.1 200 /);
    // Signed with another secret; then one that expired (past PostgREST's 30 s of skew).
    const forged = signJwt(
      { aud: 'authenticated', role: 'authenticated', sub: OWNER },
      'another secret of at least thirty-two characters',
    );
    for (const token of [forged, tokenFor(OWNER, Math.floor(Date.now() / 1000) - 60)]) {
      for (let i = 0; i < 2; i++) {
        const refused = await rawAnswer(`GET ${path} HTTP/1.1`, headers(token));
        expect(refused).toMatch(/^HTTP\/1\.1 401 /);
        expect(refused).toContain('PGRST30');
      }
    }
  });

  it('refuses a token that expired while its answer is remembered', async () => {
    const read = (token: string) =>
      rawAnswer(`GET ${path}&title=like.*note* HTTP/1.1`, [
        ['Authorization', `Bearer ${token}`],
        ['apikey', server.keys.anonKey],
      ]);
    // A token past its expiry by 29 s, within PostgREST's 30 s of skew until the next second
    // begins. Read (and remembered) in the second half of this second; read again just after
    // the next begins, well within the cache's 1 s, when the token no longer holds.
    for (let round = 1; round <= 5; round++) {
      const second = Math.floor(Date.now() / 1000) + 1;
      await until(second * 1000 + 500);
      const token = tokenFor(OWNER, second - 29);
      expect(await read(token)).toMatch(/^HTTP\/1\.1 200 /);
      expect(await read(token)).toMatch(/^HTTP\/1\.1 200 /);
      // Too late on a loaded machine: the remembered answer could be gone by then.
      if (Date.now() >= second * 1000 + 900) continue;
      await until((second + 1) * 1000 + 100);
      const refused = await read(token);
      expect(refused).toMatch(/^HTTP\/1\.1 401 /);
      expect(refused).toContain('JWT expired');
      return;
    }
    expect.fail('no round read twice within the second');
  });

  it('answers each caller their own rows from the same URL', async () => {
    const other = '33333333-3333-4333-8333-333333333333';
    await server.db
      .serverWork()
      .exec(`insert into public.front_notes values (100, '${other}', 'Theirs')`);
    const read = async (sub: string) => {
      const answer = await rawAnswer(`GET ${path} HTTP/1.1`, [
        ['Authorization', `Bearer ${tokenFor(sub)}`],
        ['apikey', server.keys.anonKey],
      ]);
      return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { id: number }[];
    };
    // Three rounds: the second's answers are kept (asked for again), the third's remembered.
    for (let i = 0; i < 3; i++) {
      expect((await read(other)).map((row) => row.id)).toEqual([100]);
      expect((await read(OWNER)).map((row) => row.id)).toEqual([
        20, 18, 16, 14, 12, 10, 8, 6, 4, 2,
      ]);
    }
  });
});
