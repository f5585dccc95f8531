// How a new thread or process of the server loads its TypeScript (the entries
// db/pglite-worker-entry.mjs, workers/worker.mjs and workers/process-entry.mjs). It does not
// inherit the main thread's loader (tsx, or Vitest's transform), so it registers tsx itself and
// imports the module's source.
//
// STEWARD_WORKER_BUNDLES, when set, names a directory of the same modules already bundled into
// JavaScript (tests/support/worker-bundles.ts builds it once per test run): `<name>.mjs` for
// `<name>.ts`. Registering tsx costs each new thread about 0.2 s of CPU (in Node 20 each
// registration starts a loader thread that resolves and compiles every module anew), and the
// test suites start hundreds of servers with two threads each. `npm start` does not set it.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Imports the server's TypeScript module at `url` (a file URL) in this thread or process. */
export async function importTypeScript(url) {
  const bundles = process.env.STEWARD_WORKER_BUNDLES;
  if (bundles) {
    const name = path.basename(fileURLToPath(url), '.ts');
    return import(pathToFileURL(path.join(bundles, `${name}.mjs`)).href);
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import(url);
}
