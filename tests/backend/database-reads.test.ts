import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database, ScopedDatabase, Statement } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open.ts';
import {
  PREPARED_PER_CONNECTION,
  openPostgres,
  type PostgresOptions,
} from '../../server/db/postgres.ts';
import { scratchDir } from '../support/scratch.ts';
import {
  copyPgliteTemplate,
  freshPostgresDatabase,
  postgresAdminUrl,
} from '../support/template.ts';

// `runBatch`, the REST fast path: on PostgreSQL the time limit, the caller's settings and the
// statement go as one message group with one Sync (server/db/message-group.ts), a read in the
// group's implicit transaction. Each read keeps its own settings, a failing one fails alone, and
// nothing it set stays on the connection for the next. PGlite must behave the same.

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The app's database; on PostgreSQL a pool of one connection unless told otherwise. */
async function open(options: PostgresOptions = { poolSize: 1 }): Promise<Database> {
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const fresh = await freshPostgresDatabase(adminUrl);
    cleanups.push(fresh.drop);
    const db = await openPostgres(fresh.url, options);
    cleanups.push(() => db.close());
    return db;
  }
  const dataDir = await scratchDir('steward-reads-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  await copyPgliteTemplate('app', path.join(dataDir, 'db'));
  const db = await openDatabase({ dataDir });
  cleanups.push(() => db.close());
  return db;
}

/** Runs `fn` with `db`'s handle in `lane`, as an authenticated caller's request. */
const as = <T>(db: Database, lane: string, fn: (db: ScopedDatabase) => Promise<T>) =>
  fn(db.scoped({ lane, role: 'authenticated' }));

/** A read as `authenticated` with its own setting `n`, ending with `last`. */
function read(n: string, last: string): Statement[] {
  return [
    {
      sql: `select set_config('role', 'authenticated', true), set_config('steward_test.n', $1, true)`,
      params: [n],
    },
    { sql: last, params: [] },
  ];
}

const own = `select current_setting('steward_test.n') as n, current_user as who`;
const readOnly = { readOnly: true };

/** What a statement outside any request sees on the connection afterwards. */
const leftOver = (db: Database) =>
  db.serverWork().query<{ who: string; n: string | null; read_only: string }>(
    `select current_user as who, current_setting('steward_test.n', true) as n,
            current_setting('transaction_read_only') as read_only`,
  );

describe('runBatch', () => {
  it('answers each caller’s reads with their own settings, fails a failing read alone, and leaves nothing set', async () => {
    const db = await open({ poolSize: 10 });
    const reads = Array.from({ length: 12 }, (_, i) => {
      const lane = i % 2 ? 'caller B' : 'caller A';
      const last = i === 5 ? `select 1 / 0 as n` : own;
      return as(db, lane, (db) =>
        db.runBatch(read(`${lane} ${i}`, last), (rows) => rows[0]!, readOnly),
      );
    });
    const answers = await Promise.allSettled(reads);
    expect(answers[5]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    answers.forEach((answer, i) => {
      if (i === 5) return;
      const lane = i % 2 ? 'caller B' : 'caller A';
      expect(answer).toEqual({
        status: 'fulfilled',
        value: { n: `${lane} ${i}`, who: 'authenticated' },
      });
    });
  });

  it('leaves no setting of a read behind on its connection, whether it answered or failed', async () => {
    const db = await open();
    const ok = await as(db, 'caller', (db) =>
      db.runBatch(read('1', own), (rows) => rows, readOnly),
    );
    expect(ok).toEqual([{ n: '1', who: 'authenticated' }]);
    const failures = [
      // The statement fails after the settings.
      read('2', `select 1 / 0 as n`),
      // The settings themselves fail half-way.
      [{ sql: `select set_config('role', 'authenticated', true), 1 / 0`, params: [] }],
      // A read may not write.
      [
        ...read('3', `select 1`).slice(0, 1),
        { sql: `select set_config('transaction_read_only', 'on', true)`, params: [] },
        { sql: `create table steward_test_write (id int)`, params: [] },
      ],
    ];
    const codes = [];
    for (const statements of failures) {
      const failed = as(db, 'caller', (db) => db.runBatch(statements, (rows) => rows, readOnly));
      codes.push(
        await failed.then(
          () => 'answered',
          (error: { code?: string }) => error.code,
        ),
      );
    }
    expect(codes).toEqual(['22012', '22012', '25006']);
    // One connection: the next statement runs where the failed reads ran.
    const after = await leftOver(db);
    expect(after.rows[0]).toMatchObject({ who: 'postgres', read_only: 'off' });
    expect(after.rows[0]!.n ?? '').toBe('');
  });

  it('commits a write when finish returns and rolls it back when finish or a statement throws', async () => {
    const db = await open();
    await db.serverWork().exec(`create table public.steward_test_marks (label text primary key)`);
    const write = (label: string, finish: (rows: unknown[]) => unknown = (rows) => rows) =>
      as(db, 'caller', (db) =>
        db.runBatch(
          [
            { sql: `select set_config('steward_test.n', $1, true)`, params: [label] },
            {
              sql: `insert into public.steward_test_marks values (current_setting('steward_test.n')) returning label`,
              params: [],
            },
          ],
          finish,
          { readOnly: false },
        ),
      );
    expect(await write('kept')).toEqual([{ label: 'kept' }]);
    await expect(
      write('finish threw', () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(write('kept')).rejects.toMatchObject({ code: '23505' });
    const marks = await db.serverWork().query(`select label from public.steward_test_marks`);
    expect(marks.rows).toEqual([{ label: 'kept' }]);
    const after = await leftOver(db);
    expect(after.rows[0]!.n ?? '').toBe('');
  });

  if (postgresAdminUrl()) {
    it('sends and reads values as node-postgres’ own queries do', async () => {
      const db = await open();
      const statements: Statement[] = [
        {
          sql: `select $1::text[] as names, $2::jsonb as doc, $3::int8 as big, $4::bool as yes,
                       $5::text as nothing, 7::int4 as small`,
          params: [['a', 'b,c'], { x: [1, 'two'] }, '9007199254740993', true, null],
        },
      ];
      const rows = await as(db, 'caller', (db) =>
        db.runBatch(statements, (rows) => rows, readOnly),
      );
      const driver = await db.serverWork().query(statements[0]!.sql, statements[0]!.params);
      expect(rows).toEqual(driver.rows);
      expect(rows).toEqual([
        {
          names: ['a', 'b,c'],
          doc: { x: [1, 'two'] },
          big: '9007199254740993',
          yes: true,
          nothing: null,
          small: 7,
        },
      ]);
    });

    it('sends a read as one query with one Sync, and a write as one and its commit', async () => {
      const db = await open();
      const sent: unknown[] = [];
      const query = pg.Client.prototype.query;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        sent.push(args[0]);
        return (query as (...args: unknown[]) => unknown).apply(this, args);
      } as typeof query;
      try {
        await as(db, 'caller', (db) => db.runBatch(read('1', own), (rows) => rows, readOnly));
        expect(sent).toHaveLength(1);
        await as(db, 'caller', (db) =>
          db.runBatch(read('2', own), (rows) => rows, { readOnly: false }),
        );
        expect(sent.slice(1)).toEqual([expect.anything(), 'commit']);
      } finally {
        pg.Client.prototype.query = query;
      }
    });

    it('bounds a read by the caller’s time limit, which ends with the read', async () => {
      const timeoutsMs = { anon: 100, authenticated: 300, service_role: 5000 };
      const db = await open({ poolSize: 1, timeoutsMs });
      const limit = `select current_setting('statement_timeout') as n, current_user as who`;
      const answer = await as(db, 'caller', (db) =>
        db.runBatch(read('1', limit), (r) => r, readOnly),
      );
      expect(answer).toEqual([{ n: '300ms', who: 'authenticated' }]);
      const slow = as(db, 'caller', (db) =>
        db.runBatch(read('2', `select pg_sleep(3)::text as n`), (rows) => rows, readOnly),
      );
      await expect(slow).rejects.toMatchObject({
        code: '57014',
        message: 'canceling statement due to statement timeout',
      });
      // The connection's own limit (the service role's) is back for the server's statements.
      const after = await db
        .serverWork()
        .query<{ limit: string }>(`select current_setting('statement_timeout') as limit`);
      expect(after.rows).toEqual([{ limit: '5s' }]);
    });

    it('keeps statements prepared per connection: a changed result, the role, failures and evictions are all followed', async () => {
      const db = await open();
      await db.serverWork().exec(`
        create table public.steward_test_shape (a int);
        insert into public.steward_test_shape values (1);
        grant select on public.steward_test_shape to authenticated;
        create table public.steward_test_owned (owner text);
        insert into public.steward_test_owned values ('a'), ('b'), ('b');
        alter table public.steward_test_owned enable row level security;
        create policy own on public.steward_test_owned for select to authenticated
          using (owner = current_setting('steward_test.n'));
        grant select on public.steward_test_owned to authenticated;
      `);
      const run = (statements: Statement[]) =>
        as(db, 'caller', (db) => db.runBatch(statements, (rows) => rows, readOnly));
      const shape = read('1', `select * from public.steward_test_shape`);
      expect(await run(shape)).toEqual([{ a: 1 }]);
      expect(await run(shape)).toEqual([{ a: 1 }]);
      // A migration changes what the prepared statement returns.
      await db
        .serverWork()
        .exec(`alter table public.steward_test_shape add column b text default 'new'`);
      expect(await run(shape)).toEqual([{ a: 1, b: 'new' }]);

      // Row-level security follows each read's own settings on the same prepared statement.
      const owned = (n: string) =>
        read(n, `select count(*)::int as rows from public.steward_test_owned`);
      for (const n of ['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']) {
        expect(await run(owned(n))).toEqual([{ rows: n === 'a' ? 1 : 2 }]);
      }
      // And so does the role: no policy lets anon see a row (the app's schema grants it select).
      const asAnon = [
        { sql: `select set_config('role', 'anon', true)`, params: [] },
        { sql: `select count(*)::int as rows from public.steward_test_owned`, params: [] },
      ];
      expect(await run(asAnon)).toEqual([{ rows: 0 }]);
      expect(await run(owned('b'))).toEqual([{ rows: 2 }]);

      // A statement that failed to parse or to run is parsed again, and fails the same way.
      for (let i = 0; i < 2; i += 1) {
        await expect(run(read('1', `select 1 / 0`))).rejects.toMatchObject({ code: '22012' });
        await expect(run(read('1', `select from nowhere at all`))).rejects.toMatchObject({
          code: '42601',
        });
        expect(await run(shape)).toEqual([{ a: 1, b: 'new' }]);
      }

      // More distinct statements than a connection keeps: the oldest are closed, and answer
      // right when they come back.
      const distinct = (i: number) => read('1', `select ${i} as i`);
      for (let i = 0; i < PREPARED_PER_CONNECTION + 50; i += 1) {
        expect(await run(distinct(i))).toEqual([{ i }]);
      }
      for (let i = 0; i < 5; i += 1) expect(await run(distinct(i))).toEqual([{ i }]);
      const kept = await run(read('1', `select count(*)::int as n from pg_prepared_statements`));
      expect(kept[0]!.n).toBeGreaterThan(PREPARED_PER_CONNECTION / 2);
      expect(kept[0]!.n).toBeLessThanOrEqual(PREPARED_PER_CONNECTION + 1);
    });

    it('writes a caller’s next read before the previous answer is back, so the database runs it while this process is busy', async () => {
      const db = await open({ poolSize: 10 });
      const slow = `select pg_sleep(0.2)::text as at`;
      const stamp = `select clock_timestamp()::text as at`;
      // Two connections are open and have the statements prepared. Done in a lane of its own:
      // on a busy machine opening a connection can take 100 ms, and the caller's lane would count
      // these as heavy reads and be held to one connection (fair-queue.ts).
      await Promise.all(
        ['0', '1', '2', '3'].map((n) =>
          as(db, 'warm-up', (db) => db.runBatch(read(n, stamp), (rows) => rows, readOnly)),
        ),
      );
      // Two slow reads take the caller's two places; the next two wait for them.
      const reads = [slow, slow, stamp, stamp].map((last, n) =>
        as(db, 'caller', (db) =>
          db.runBatch(read(String(n), last), (rows) => rows[0]!.at as string, readOnly),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      // This process does nothing else for 1.5 s: a read it had not written yet cannot run.
      const busyUntil = Date.now() + 1500;
      while (Date.now() < busyUntil);
      const stamps = (await Promise.all(reads)).slice(2);
      for (const at of stamps) expect(new Date(at).getTime()).toBeLessThan(busyUntil);
    });

    it('keeps reads written one behind the other apart: settings, failures and statements whose Parse failed ahead of them', async () => {
      // One connection: every read of the caller after the first is written behind another.
      const db = await open({
        poolSize: 1,
        timeoutsMs: { anon: 100, authenticated: 300, service_role: 5000 },
      });
      const limit = `select current_setting('statement_timeout') as n, current_user as who`;
      const fresh = `select current_setting('steward_test.n') as n, 'fresh' as who`;
      const badRole = [
        { sql: `select set_config('role', 'steward_no_such_role', true)`, params: [] },
        { sql: fresh, params: [] },
      ];
      const batches: Statement[][] = [
        read('a', own),
        read('b', `select 1 / 0 as n`),
        read('c', own),
        // Fails before its Parse of `fresh` runs; the read behind it uses the same text.
        badRole,
        read('d', fresh),
        read('e', fresh),
        read('f', limit),
        // Last: the reads behind it would wait past the caller's limit for their turn.
        read('g', `select pg_sleep(3)::text as n`),
      ];
      const answers = await Promise.allSettled(
        batches.map((statements) =>
          as(db, 'caller', (db) => db.runBatch(statements, (rows) => rows[0]!, readOnly)),
        ),
      );
      expect(
        answers.map((answer) =>
          answer.status === 'fulfilled' ? answer.value : answer.reason.code,
        ),
      ).toEqual([
        { n: 'a', who: 'authenticated' },
        '22012',
        { n: 'c', who: 'authenticated' },
        '22023',
        { n: 'd', who: 'fresh' },
        { n: 'e', who: 'fresh' },
        { n: '300ms', who: 'authenticated' },
        '57014',
      ]);
      const after = await leftOver(db);
      expect(after.rows[0]).toMatchObject({ who: 'postgres', read_only: 'off' });
      expect(after.rows[0]!.n ?? '').toBe('');
    });

    it('keeps a connection its caller’s until every read written on it is answered, even when a read’s finish throws', async () => {
      const db = await open({ poolSize: 1 });
      await db.serverWork().exec(`
        create table public.steward_test_private (id int);
        revoke all on public.steward_test_private from public, anon, authenticated;
      `);
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const refused = as(db, 'caller A', (db) =>
        db.runBatch(
          read('1', `select pg_sleep(0.2)::text as n`),
          () => {
            throw new Error('refused by finish');
          },
          readOnly,
        ),
      );
      // Written behind the first; the third waits for a place.
      const behind = as(db, 'caller A', (db) =>
        db.runBatch(read('2', `select pg_sleep(0.3)::text as n`), (rows) => rows, readOnly),
      );
      const third = as(db, 'caller A', (db) => db.runBatch(read('3', own), (r) => r[0]!, readOnly));
      await sleep(50);
      // Another caller's transaction must not get the connection while a read is on it, nor a
      // read of the first caller (its role) be written into the transaction.
      const other = as(db, 'caller B', (db) =>
        db.transaction(async (tx) => {
          await tx.query(`insert into public.steward_test_private values (1)`);
          await sleep(300);
          await tx.query(`insert into public.steward_test_private values (2)`);
        }),
      );
      await expect(refused).rejects.toThrow('refused by finish');
      await expect(behind).resolves.toEqual([{ n: '' }]);
      await expect(third).resolves.toEqual({ n: '3', who: 'authenticated' });
      await expect(other).resolves.toBeUndefined();
      const rows = await db
        .serverWork()
        .query(`select count(*)::int as n from public.steward_test_private`);
      expect(rows.rows).toEqual([{ n: 2 }]);
    });

    it('prepares nothing when told not to (a pooler in transaction mode)', async () => {
      const db = await open({ poolSize: 1, preparedStatements: false });
      const count = read('1', `select count(*)::int as n from pg_prepared_statements`);
      for (let i = 0; i < 3; i += 1) {
        const rows = await as(db, 'caller', (db) => db.runBatch(count, (rows) => rows, readOnly));
        expect(rows).toEqual([{ n: 0 }]);
      }
    });
  }
});
