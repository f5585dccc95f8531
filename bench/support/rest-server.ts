/**
 * Child process of bench/rest-read.bench.ts: the embedded backend on a fresh database (PGlite in
 * BENCH_DATA_DIR, or PostgreSQL at BENCH_POSTGRES_URL), with `notes`: 10,000 rows of the signed-in
 * user and 10,000 of someone else, row-level security on, and the index the query needs. Prints
 * one JSON line `{url, token, anonKey, controlUrl, callerConnections}` when it serves; stops on
 * SIGTERM.
 *
 * `controlUrl` is a second, bench-only server: `POST /record` starts recording what Steward sends
 * to its database (statement-recorder.ts), `POST /recorded` stops and returns it, and
 * `POST /floor?seconds=N` has the PGlite worker run the last recorded batch by itself, in a
 * loop, for N seconds, and returns the batches per second: the floor of the embedded database
 * for that read, without HTTP, REST or the main thread.
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { readConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openDatabase } from '../../server/db/open.ts';
import { PgliteHost } from '../../server/db/pglite-host.ts';
import { connectionsPerCaller } from '../../server/db/postgres.ts';
import { signJwt } from '../../server/http/jwt.ts';
import { startServer } from '../../server/server.ts';
import type { Recording } from './statement-recorder.ts';
import { startRecording, stopRecording } from './statement-recorder.ts';

const BENCH_USER = '11111111-1111-4111-8111-111111111111';
const OTHER_USER = '22222222-2222-4222-8222-222222222222';
const ROWS_PER_USER = 10_000;

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');
const config = {
  ...readConfig({
    DATA_DIR: dataDir,
    ...(process.env.BENCH_POSTGRES_URL ? { DATABASE_URL: process.env.BENCH_POSTGRES_URL } : {}),
  }),
  port: 0,
  host: '127.0.0.1',
  logRequests: false,
};

async function seed(db: Database): Promise<void> {
  await migrate(db, path.join(config.rootDir, 'tests', 'support', 'no-migrations'));
  await db.serverWork().exec(`
    create table notes (
      id bigint generated always as identity primary key,
      owner uuid not null default auth.uid(),
      title text not null,
      body text not null,
      created_at timestamptz not null default now()
    );
    create index notes_owner_created_at_idx on notes (owner, created_at desc);
    alter table notes enable row level security;
    create policy "owners read their notes" on notes for select to authenticated
      using ((select auth.uid()) = owner);
    insert into notes (owner, title, body, created_at)
      select case when i % 2 = 0 then '${BENCH_USER}'::uuid else '${OTHER_USER}'::uuid end,
             'Note ' || i, repeat('lorem ipsum ', 8), timestamptz '2025-01-01' + i * interval '1 minute'
      from generate_series(1, ${ROWS_PER_USER * 2}) i;
    analyze notes;
  `);
}

const db = await openDatabase(config);
await seed(db);
let recorded: Recording = { wire: [], batches: [] };
const control = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const answer = (value: unknown) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(value));
  };
  const fail = (error: unknown) => {
    response.statusCode = 500;
    answer({ error: (error as Error).message });
  };
  if (url.pathname === '/record') {
    startRecording(db);
    answer({});
  } else if (url.pathname === '/recorded') {
    recorded = stopRecording();
    answer(recorded);
  } else if (url.pathname === '/floor') {
    const batch = recorded.batches.at(-1);
    if (!batch) return fail(new Error('nothing recorded'));
    if (!(db instanceof PgliteHost)) return fail(new Error('the floor here is PGlite’s'));
    db.floorOf(batch, Number(url.searchParams.get('seconds') ?? 5)).then(
      (perSecond) => answer({ perSecond }),
      fail,
    );
  } else {
    response.statusCode = 404;
    response.end();
  }
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
const controlPort = (control.address() as { port: number }).port;
const server = await startServer({ config, db, skipMigrations: true });
const now = Math.floor(Date.now() / 1000);
const token = signJwt(
  {
    aud: 'authenticated',
    role: 'authenticated',
    sub: BENCH_USER,
    iat: now,
    exp: now + 86_400,
    session_id: BENCH_USER,
  },
  server.keys.jwtSecret,
);
process.stdout.write(
  JSON.stringify({
    url: server.url,
    token,
    anonKey: server.keys.anonKey,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    callerConnections: connectionsPerCaller(),
  }) + '\n',
);
process.on('SIGTERM', () => {
  control.close();
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
