import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PgliteHost } from '../../server/db/pglite-host.ts';
import { WorkerConnection } from '../../server/db/worker-connection.ts';

// How callers take turns on the embedded database's one worker (server/db/pglite-host.ts): a
// caller's next read may already wait in the worker behind its previous one, so that the worker
// does not idle while the thread that serves HTTP sends the next; a caller whose reads run long
// gets one turn at a time, so another caller's read waits behind at most one of them.
describe('PGlite turns', () => {
  let dir: string;
  let db: PgliteHost;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'steward-pglite-turns-'));
    db = await PgliteHost.open({ dataDir: dir });
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts a read of `seconds` in `lane`'s turns; resolves to `name` once answered. */
  const read = (lane: string, name: string, seconds = 0) =>
    db
      .scoped({ lane, role: 'authenticated' })
      .runBatch([{ sql: 'select pg_sleep($1::float8)', params: [seconds] }], () => name, {
        readOnly: true,
      });

  /** The names of `reads` in the order they were answered. */
  async function answeredInOrder(reads: Promise<string>[]): Promise<string[]> {
    const order: string[] = [];
    await Promise.all(reads.map((r) => r.then((name) => order.push(name))));
    return order;
  }

  it('lets a caller’s next read wait in the worker behind its first', async () => {
    // Without it, b's read (started later) would take the second turn and pass a's second.
    const order = await answeredInOrder([
      read('user:a', 'a1', 0.2),
      read('user:a', 'a2'),
      read('user:b', 'b1'),
    ]);
    expect(order).toEqual(['a1', 'a2', 'b1']);
  });

  it('gives a caller whose reads ran long one turn at a time, leaving the other to others', async () => {
    // Two long reads of c's in a row mark it (as the fair queue does for PostgreSQL).
    await answeredInOrder([read('user:c', 'c1', 0.15), read('user:c', 'c2', 0.15)]);
    const order = await answeredInOrder([
      read('user:c', 'c3', 0.2),
      read('user:c', 'c4'),
      read('user:d', 'd1'),
    ]);
    expect(order).toEqual(['c3', 'd1', 'c4']);
  });

  it('sends a read to the worker while a write runs there, to start when the write is answered', async () => {
    const sent: string[] = [];
    const request = WorkerConnection.prototype.request;
    const spy = vi.spyOn(WorkerConnection.prototype, 'request').mockImplementation(function (
      this: WorkerConnection,
      message,
    ) {
      if (message.op === 'batch') sent.push(message.readOnly ? 'read' : 'write');
      return request.call(this, message);
    });
    try {
      // A write the worker ends itself (one message), running for 0.3 s; `finish` runs as its
      // answer arrives, before its turn ends.
      const write = db
        .scoped({ lane: 'user:e', role: 'authenticated' })
        .runBatch(
          [{ sql: 'select pg_sleep(0.3)', params: [] }],
          () => `reads sent while it ran: ${sent.filter((op) => op === 'read').length}`,
          { readOnly: false, ends: 'commit' },
        );
      const reading = read('user:f', 'f1');
      const [written] = await Promise.all([write, reading]);
      // Without it the read would have been sent once the write's turn had ended.
      expect(written).toBe('reads sent while it ran: 1');
    } finally {
      spy.mockRestore();
    }
  });
});
