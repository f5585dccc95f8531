import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuPool } from '../../server/workers/cpu-pool.ts';
import { ProcessPool } from '../../server/workers/process-pool.ts';

// The test run's global set-up bundles the worker modules once (tests/support/worker-bundles.ts)
// and names them in STEWARD_WORKER_BUNDLES; the threads and processes of every test server load
// them from there instead of registering tsx (server/import-typescript.mjs).
describe('worker modules bundled for the test run', () => {
  const runBundles = process.env.STEWARD_WORKER_BUNDLES;
  let stubs: string | undefined;
  afterEach(async () => {
    process.env.STEWARD_WORKER_BUNDLES = runBundles;
    if (stubs) await rm(stubs, { recursive: true, force: true });
    stubs = undefined;
  });

  /** A directory of bundles whose modules say where they came from. */
  async function stubBundles(files: Record<string, string>): Promise<void> {
    stubs = await mkdtemp(path.join(os.tmpdir(), 'steward-bundles-'));
    for (const [name, code] of Object.entries(files)) await writeFile(path.join(stubs, name), code);
    process.env.STEWARD_WORKER_BUNDLES = stubs;
  }

  it('are built for the run: the database worker, the CPU tasks and the file tasks', async () => {
    expect(runBundles).toBeTruthy();
    for (const name of ['pglite-worker.mjs', 'tasks.mjs', 'file-tasks.mjs']) {
      await expect(access(path.join(runBundles!, name))).resolves.toBeUndefined();
    }
  });

  it("are what the CPU pool's threads load", async () => {
    await stubBundles({
      'tasks.mjs': 'export const cpuTasks = { hashPassword: () => "from the bundle" };',
    });
    const pool = new CpuPool({ threads: 1 });
    try {
      await expect(
        pool.run('hashPassword', { password: 'x', cost: 4 }, { lane: 'test' }),
      ).resolves.toBe('from the bundle');
    } finally {
      await pool.close();
    }
  });

  it('are what the background processes load, by the name of their tasks module', async () => {
    await stubBundles({
      'file-tasks.mjs': 'export const tasks = { whence: () => "from the bundle" };',
    });
    const pool = new ProcessPool<{ whence: (args: null) => string }>({
      tasksModule: new URL('../../server/file-tasks.ts', import.meta.url),
      processes: 1,
      memoryLimitBytes: 256 * 1024 ** 2,
    });
    try {
      await expect(pool.run('whence', null, { lane: 'test' })).resolves.toBe('from the bundle');
    } finally {
      await pool.close();
    }
  });
});
