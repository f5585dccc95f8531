import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { databaseTestFiles } from './database-test-files.ts';

// `npm test`: every suite, in order, stopping at the first failure.
//   1. vitest: unit, component and backend tests (the backend on PGlite)
//   2. the backend tests that use a database again on PostgreSQL, when TEST_DATABASE_URL names
//      a server (database-test-files.ts: the others would run the same code a second time)
//   3. end to end in Chromium, against `npm start` on a temporary data directory
const rootDir = path.resolve(import.meta.dirname, '..');
const extraArgs = process.argv.slice(2);

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv): void {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: rootDir, env });
  console.log(
    `=== ${title}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)}s ===`,
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;
run(
  'unit, component and backend tests (PGlite)',
  'npx',
  ['vitest', 'run', ...extraArgs],
  withoutPostgres,
);
if (TEST_DATABASE_URL) {
  const files = extraArgs.length > 0 ? extraArgs : databaseTestFiles(rootDir);
  run(
    'backend tests (PostgreSQL)',
    'npx',
    ['vitest', 'run', '--project', 'backend', ...files],
    process.env,
  );
}
if (existsSync(path.join(rootDir, 'playwright.config.ts')) && extraArgs.length === 0) {
  run('end-to-end tests (Chromium)', 'npx', ['playwright', 'test'], withoutPostgres);
}
