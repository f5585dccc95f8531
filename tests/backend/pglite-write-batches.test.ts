import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BatchEnd, Row } from '../../server/db/database.ts';
import { PgliteHost } from '../../server/db/pglite-host.ts';
import { WorkerConnection } from '../../server/db/worker-connection.ts';

// A writing batch whose end its rows decide (database.ts `BatchEnd`: REST writes, storage's
// trial and committing writes) is ended by the PGlite worker in the batch's own message, instead
// of a second message once the thread that serves HTTP has run `finish`: the worker is held for
// one round trip per write instead of two. Every end must still be exactly the one `finish`
// decides.
describe('PGlite writing batches ended by their rows', () => {
  let dir: string;
  let db: PgliteHost;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'steward-pglite-writes-'));
    db = await PgliteHost.open({ dataDir: dir });
    await db.serverWork().exec(`create table notes (id int primary key, body text);
      create table parents (id int primary key);
      create table children (id int primary key,
        parent int references parents (id) deferrable initially deferred)`);
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The ops of the messages sent to the worker while `work` runs. */
  async function messagesOf(work: () => Promise<unknown>): Promise<string[]> {
    const ops: string[] = [];
    const request = vi.spyOn(WorkerConnection.prototype, 'request');
    try {
      await work().catch(() => undefined);
      for (const [message] of request.mock.calls) ops.push(message.op);
    } finally {
      request.mockRestore();
    }
    return ops;
  }

  /** Inserts `ids` into notes and answers their count, as a REST write's one row does. */
  const insert = <T = Row[]>(
    ids: number[],
    ends: BatchEnd | undefined,
    finish: (rows: Row[]) => T = (rows) => rows as T,
  ) =>
    db.serverWork().runBatch(
      [
        {
          sql: `with written as (insert into notes (id) select unnest($1::int[]) returning id)
                select count(*)::int as page from written`,
          params: [`{${ids.join(',')}}`],
        },
      ],
      finish,
      { readOnly: false, ...(ends ? { ends } : {}) },
    );

  const noteIds = async () =>
    (await db.serverWork().query<{ id: number }>('select id from notes order by id')).rows.map(
      (r) => r.id,
    );

  const single = { commitIf: { column: 'page', min: 1, max: 1 } } as const;
  const refuseUnlessOne = (rows: Row[]) => {
    if (rows[0]!.page !== 1) throw new Error('not one row');
    return rows;
  };

  it('commits in the batch’s own message when its rows are within bounds', async () => {
    const ops = await messagesOf(() => insert([1], single, refuseUnlessOne));
    expect(ops).toEqual(['batch']);
    expect(await noteIds()).toContain(1);
    // Without an end known in advance, `finish` decides in a second message, as before.
    expect(await messagesOf(() => insert([2], undefined))).toEqual(['batch', 'finish']);
    expect(await noteIds()).toEqual([1, 2]);
  });

  it('rolls back in the same message when the rows are outside, and finish refuses', async () => {
    const ops = await messagesOf(async () => {
      await expect(insert([3, 4], single, refuseUnlessOne)).rejects.toThrow('not one row');
    });
    expect(ops).toEqual(['batch']);
    expect(await noteIds()).toEqual([1, 2]);
    // The worker's session is left with no transaction open: the next write commits.
    await insert([5], 'commit');
    expect(await noteIds()).toEqual([1, 2, 5]);
  });

  it('undoes a trial (`rollback`) and answers what finish made of its rows', async () => {
    const answer = await insert([6, 7], 'rollback', (rows) => rows[0]!.page);
    expect(answer).toBe(2);
    expect(await noteIds()).toEqual([1, 2, 5]);
  });

  it('refuses a finish that accepts rows its bounds rolled back, and keeps nothing', async () => {
    await expect(insert([8, 9], single)).rejects.toThrow('rolled back');
    expect(await noteIds()).toEqual([1, 2, 5]);
  });

  it('answers the error of a commit the database refuses, and keeps nothing', async () => {
    const orphan = db
      .serverWork()
      .runBatch(
        [{ sql: 'insert into children (id, parent) values (1, 42)', params: [] }],
        () => 'accepted',
        { readOnly: false, ends: 'commit' },
      );
    await expect(orphan).rejects.toMatchObject({ code: '23503' });
    expect((await db.serverWork().query('select * from children')).rows).toEqual([]);
    await insert([10], 'commit');
    expect(await noteIds()).toEqual([1, 2, 5, 10]);
  });

  it('hands finish the rows of the statement `rowsOf` names', async () => {
    const rows = await db.serverWork().runBatch(
      [
        { sql: `select 'first' as which`, params: [] },
        { sql: 'insert into notes (id) values (11)', params: [] },
      ],
      (rows) => rows,
      { readOnly: false, ends: 'rollback', rowsOf: 0 },
    );
    expect(rows).toEqual([{ which: 'first' }]);
    expect(await noteIds()).toEqual([1, 2, 5, 10]);
  });
});
