import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database, Statement } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open.ts';
import { connectionsPerCaller, openPostgres } from '../../server/db/postgres.ts';
import { withRequestScope } from '../../server/db/request-scope.ts';
import { scratchDir } from '../support/scratch.ts';
import {
  copyPgliteTemplate,
  freshPostgresDatabase,
  postgresAdminUrl,
} from '../support/template.ts';

// A caller's read-only batches (the REST reads, Storage's reads): on PostgreSQL the next ones
// of a caller are written on its connections before the previous answers are back
// (server/db/postgres.ts, SharedReads). Each is still its own transaction with its own
// settings, a failing one fails alone, and the caller holds no more connections than its share.

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function open(): Promise<Database> {
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const fresh = await freshPostgresDatabase(adminUrl, { empty: true });
    cleanups.push(fresh.drop);
    const db = await openPostgres(fresh.url);
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

const asCaller = <T>(fn: () => Promise<T>) =>
  withRequestScope({ lane: 'one caller', role: 'authenticated' }, fn);

/** A read whose answer is its own setting `n` (transaction-local) and the backend that ran it. */
function read(n: number, last: string): Statement[] {
  return [
    { sql: `select set_config('steward_test.n', $1, true)`, params: [String(n)] },
    { sql: last, params: [] },
  ];
}

describe('read-only batches of one caller', () => {
  it('each get their own answer and settings, and a failing one fails alone', async () => {
    const db = await open();
    const own = `select current_setting('steward_test.n') as n, pg_backend_pid() as pid`;
    const reads = Array.from({ length: 12 }, (_, n) =>
      asCaller(() =>
        db.runBatch(read(n, n === 5 ? `select 1 / 0 as n` : own), (rows) => rows[0]!, {
          readOnly: true,
        }),
      ),
    );
    const answers = await Promise.allSettled(reads);
    expect(answers[5]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    const answered = answers.filter((answer) => answer.status === 'fulfilled');
    expect(answered.map((answer) => answer.value.n)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
    ]);
    // Nothing stays set for the next transaction on the same connection.
    const after = await asCaller(() =>
      db.runBatch(
        [{ sql: `select current_setting('steward_test.n', true) as n`, params: [] }],
        (rows) => rows[0]!,
        { readOnly: true },
      ),
    );
    expect(after.n ?? '').toBe('');
    if (db.kind === 'postgres') {
      const backends = new Set(answered.map((answer) => answer.value.pid));
      expect(backends.size).toBeLessThanOrEqual(connectionsPerCaller());
    }
  });

  if (postgresAdminUrl()) {
    it('are written before the previous answers are back, so the database runs them while this process is busy', async () => {
      const db = await open();
      const slow = `select pg_sleep(0.2)::text as at`;
      const stamp = `select clock_timestamp() as at`;
      const both = [0, 1].map((n) =>
        asCaller(() => db.runBatch(read(n, stamp), (rows) => rows, { readOnly: true })),
      );
      await Promise.all(both); // the caller's two connections are open
      // Two slow reads take the caller's two connections; the next two wait for them.
      const reads = [slow, slow, stamp, stamp].map((last, n) =>
        asCaller(() =>
          db.runBatch(read(n, last), (rows) => rows[0]!.at as string, { readOnly: true }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      // This process does nothing else for 1.5 s: a read it had not written yet cannot run.
      const busyUntil = Date.now() + 1500;
      while (Date.now() < busyUntil);
      const stamps = (await Promise.all(reads)).slice(2);
      for (const at of stamps) expect(new Date(at).getTime()).toBeLessThan(busyUntil);
    });
  }
});
