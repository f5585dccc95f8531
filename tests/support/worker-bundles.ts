import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { rootDir } from './template.ts';

const ENV = 'STEWARD_WORKER_BUNDLES';

/**
 * The TypeScript modules that the server's threads and processes load by themselves
 * (server/import-typescript.mjs): the database worker, the CPU pool's tasks and the
 * background processes' file tasks.
 */
const WORKER_MODULES = [
  'server/db/pglite-worker.ts',
  'server/workers/tasks.ts',
  'server/file-tasks.ts',
];

/**
 * Bundles the worker modules into JavaScript once for the test run (global set-up) and names the
 * directory in STEWARD_WORKER_BUNDLES, which the test files' processes inherit: every database
 * worker, CPU-pool thread and background process of their servers then loads that JavaScript
 * instead of registering tsx, which compiled and resolved the same TypeScript anew in each
 * (about 0.2 s of CPU a thread; a test server has two, and the suites start hundreds).
 * Returns the directory's removal, or null when the variable is already set.
 *
 * The directory is under `.tmp/`, one level below the checkout as `server/` is, so that the
 * packages (left as imports of node_modules) resolve as from the sources. Dynamic imports stay
 * separate chunks (`splitting`), loaded only when a task needs them, as from the sources.
 */
export async function buildWorkerBundles(): Promise<(() => Promise<void>) | null> {
  if (process.env[ENV]) return null;
  // Unique: the passes of `npm test`, or two runs, may build at the same time.
  const dir = path.join(
    rootDir,
    '.tmp',
    `worker-bundles.${process.pid}.${randomBytes(4).toString('hex')}`,
  );
  await mkdir(dir, { recursive: true });
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await build({
      entryPoints: WORKER_MODULES.map((file) => path.join(rootDir, file)),
      outdir: dir,
      entryNames: '[name]',
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    });
    await refuseOwnPlace(dir);
  } catch (error) {
    await remove();
    throw error;
  }
  process.env[ENV] = dir;
  return remove;
}

/**
 * A module that finds files beside itself would look in `.tmp/` instead of its own folder:
 * refused. `createRequire(import.meta.url)` only resolves packages, which works from there.
 */
async function refuseOwnPlace(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const code = await readFile(path.join(dir, name), 'utf8');
    const misplaced = code
      .replace(/createRequire\(import\.meta\.url\)/g, '')
      .match(/import\.meta\.\w+/);
    if (misplaced)
      throw new Error(`${name}: a bundled worker module uses ${misplaced[0]} for its own place`);
  }
}
