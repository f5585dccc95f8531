import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteHost } from '../../server/db/pglite-host.ts';

// Single queries on the embedded database run as prepared statements in one call into
// WebAssembly (server/db/pglite-worker.ts); they must answer exactly as PGlite's own query did,
// including after the schema changed under a statement prepared earlier.
describe('PGlite single queries', () => {
  let dir: string;
  let db: PgliteHost;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'steward-pglite-queries-'));
    db = await PgliteHost.open({ dataDir: dir });
    await db.serverWork().exec(`create table notes (id int primary key, title text, done boolean)`);
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers rows, affected rows and values as text, numbers and booleans', async () => {
    const inserted = await db
      .serverWork()
      .query('insert into notes (id, title, done) values ($1, $2, $3), ($4, $5, $6)', [
        1,
        'first',
        true,
        2,
        'second',
        false,
      ]);
    expect(inserted).toEqual({ rows: [], rowCount: 2 });
    const updated = await db
      .serverWork()
      .query('update notes set done = $1 where id = $2', [true, 2]);
    expect(updated.rowCount).toBe(1);
    const { rows } = await db.serverWork().query('select id, title, done from notes order by id');
    expect(rows).toEqual([
      { id: 1, title: 'first', done: true },
      { id: 2, title: 'second', done: true },
    ]);
  });

  it('reads a table whose columns changed since its statement was prepared, in a transaction too', async () => {
    const sql = 'select * from notes where id = $1';
    expect((await db.serverWork().query(sql, [1])).rows).toEqual([
      { id: 1, title: 'first', done: true },
    ]);
    await db.serverWork().exec('alter table notes add column due date');
    const rows = await db.serverWork().transaction(async (tx) => (await tx.query(sql, [1])).rows);
    expect(rows).toEqual([{ id: 1, title: 'first', done: true, due: null }]);
    expect((await db.serverWork().query(sql, [1])).rows).toEqual([rows[0]]);
  });

  it('answers larger than one piece of what Postgres writes arrive whole, byte for byte', async () => {
    await db
      .serverWork()
      .exec(
        `create table pieces as select n, md5(n::text) || repeat('x', n % 97) as label from generate_series(1, 3000) n`,
      );
    const { rows } = await db.serverWork().query('select n, label from pieces order by n', []);
    expect(rows).toHaveLength(3000);
    rows.forEach((row, index) => {
      const n = index + 1;
      expect(row.n).toBe(n);
      expect(row.label).toBe(
        createHash('md5').update(String(n)).digest('hex') + 'x'.repeat(n % 97),
      );
    });
    // One value of 1.1 MB, also far larger than a piece, and a value that spans pieces whole.
    const big = await db
      .serverWork()
      .query(`select repeat('abcdefghij', 110000) || 'end' as text, 7 as after`, []);
    expect(big.rows).toEqual([{ text: 'abcdefghij'.repeat(110000) + 'end', after: 7 }]);
  });

  it('rolls back a failed transaction and keeps serving queries', async () => {
    await expect(
      db.serverWork().transaction(async (tx) => {
        await tx.query('update notes set title = $1 where id = $2', ['changed', 1]);
        await tx.query('insert into notes (id) values ($1)', [1]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await db.serverWork().query('select title from notes where id = $1', [1]);
    expect(rows).toEqual([{ title: 'first' }]);
  });
});
