import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteHost } from '../../server/db/pglite-host.ts';

// The PGlite worker's V8 heap (server/db/worker-connection.ts, `WORKER_RESOURCE_LIMITS`): a
// young generation small enough that V8 scavenges it, instead of running a full mark-compact of
// the worker's heap every 150–200 small reads (PGlite's own buffers count against the old
// generation's room, which V8's default 48 MB young generation left no margin in). The old
// generation keeps V8's own limit, for the large results a worker builds.
describe('the PGlite worker’s heap', () => {
  let dir: string;
  let db: PgliteHost;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'steward-pglite-heap-'));
    db = await PgliteHost.open({ dataDir: dir });
  });
  afterAll(async () => {
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const limits = async () => (await db.connection()).resourceLimits;

  it('runs with a young generation of 8 MB and V8’s old generation, after a restart too', async () => {
    expect((await limits()).maxYoungGenerationSizeMb).toBe(8);
    expect((await limits()).maxOldGenerationSizeMb).toBeGreaterThanOrEqual(2048);
    await db.restart(new Error('a test restarts the worker'));
    expect((await limits()).maxYoungGenerationSizeMb).toBe(8);
    // The database still answers from the new worker.
    const { rows } = await db.serverWork().query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
  });
});
