import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Statement } from '../../server/db/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// A writing batch whose end is known before its `finish` runs (`BatchOptions.ends`, database.ts):
// a signed link's read that records the look commits with its statements, an upload's trial write
// rolls back with them (on PostgreSQL in the same round trip). Either way the batch keeps exactly
// what its end says, a failing statement keeps nothing, and the connection is clean afterwards.
describe('a writing batch that ends as it says', () => {
  let server: TestServer;
  let db: Database;

  beforeAll(async () => {
    server = await startTestServer({ schema: 'platform' });
    db = server.db;
    await db.serverWork().exec('create table public.batch_ends (id text primary key)');
  }, 120_000);
  afterAll(() => server?.close());

  const insert = (id: string): Statement => ({
    sql: 'insert into public.batch_ends (id) values ($1) returning id',
    params: [id],
  });
  const kept = async (ids: string[]) =>
    (
      await db
        .serverWork()
        .query<{ id: string }>(
          'select id from public.batch_ends where id = any($1::text[]) order by id',
          [ids],
        )
    ).rows.map((row) => row.id);

  it('commits with `commit`, answering what finish makes of the rows', async () => {
    const answer = await db
      .serverWork()
      .runBatch(
        [insert('commit-1'), insert('commit-2')],
        (rows) => `answered ${String(rows[0]?.id)}`,
        { readOnly: false, ends: 'commit' },
      );
    expect(answer).toBe('answered commit-2');
    expect(await kept(['commit-1', 'commit-2'])).toEqual(['commit-1', 'commit-2']);
  });

  it('keeps nothing with `rollback`, though finish accepted the rows', async () => {
    const answer = await db
      .serverWork()
      .runBatch([insert('trial-1'), insert('trial-2')], (rows) => `tried ${String(rows[0]?.id)}`, {
        readOnly: false,
        ends: 'rollback',
      });
    expect(answer).toBe('tried trial-2');
    expect(await kept(['trial-1', 'trial-2'])).toEqual([]);
  });

  it('keeps nothing of a batch whose statement fails, and leaves the connection clean', async () => {
    for (const ends of ['commit', 'rollback'] as const) {
      const failed = db
        .serverWork()
        .runBatch([insert(`failed-${ends}`), insert('commit-1')], () => 'never', {
          readOnly: false,
          ends,
        });
      await expect(failed).rejects.toMatchObject({ code: '23505' });
      expect(await kept([`failed-${ends}`])).toEqual([]);
    }
    // Every connection of the pool runs the next batch outside any aborted transaction.
    const batches = Array.from({ length: 12 }, (_, index) =>
      db.serverWork().runBatch([insert(`after-${index}`)], (rows) => rows.length, {
        readOnly: false,
        ends: 'commit',
      }),
    );
    expect(await Promise.all(batches)).toEqual(Array.from({ length: 12 }, () => 1));
    expect(await kept(Array.from({ length: 12 }, (_, index) => `after-${index}`))).toHaveLength(12);
  });

  it('binds arrays, dates, bytes and objects as node-postgres does, on either database', async () => {
    // The same statement meant the same on both: PGlite's batch once sent an array as JSON
    // ("malformed array literal") where node-postgres sends an array literal.
    const at = new Date('2026-11-29T12:34:56.789Z');
    const [row] = await db.serverWork().runBatch(
      [
        {
          sql: `select $1::text[] as names, $2::timestamptz as at, $3::bytea as bytes,
                       $4::jsonb as details, $5::int[] as numbers`,
          params: [
            ['a', 'b,c', 'd "e"', null],
            at,
            Buffer.from([0, 1, 254]),
            { k: [1, 'x'] },
            [1, 2],
          ],
        },
      ],
      (rows) => rows,
      { readOnly: true },
    );
    expect(row).toMatchObject({
      names: ['a', 'b,c', 'd "e"', null],
      details: { k: [1, 'x'] },
      numbers: [1, 2],
    });
    expect(new Date(row!.at as string).getTime()).toBe(at.getTime());
    expect(Buffer.from(row!.bytes as Uint8Array)).toEqual(Buffer.from([0, 1, 254]));
  });
});
