import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { databaseTestFiles } from './database-test-files.ts';

// `npm test`: every suite, in order, stopping at the first failure.
//   1. vitest: unit, component and backend tests (the backend on PGlite)
//   2. the backend tests that use a database again on PostgreSQL, when TEST_DATABASE_URL names
//      a server (database-test-files.ts: the others would run the same code a second time)
//   3. the suites that exercise the file store again with stored files in an S3 bucket (a local
//      s3rver started by the run, tests/support/s3.ts), on PGlite
//   4. end to end in Chromium, against `npm start` on a temporary data directory
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
  // The cluster project needs PostgreSQL, haproxy and several processes: `npm run test:cluster`.
  ['vitest', 'run', '--project', 'app', '--project', 'backend', ...extraArgs],
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
// Chosen for what they check of the file store (writes whole or not at all, reads and ranges,
// copies, removals, quotas, resumable uploads, versions, the trash, and work that reads files
// from local copies: their text, export and import ZIPs, e-mail attachments);
// tests/backend/s3-file-store.test.ts covers the bucket itself on every pass.
const S3_TEST_FILES = [
  'tests/backend/storage.test.ts',
  'tests/backend/storage-content-types.test.ts',
  'tests/backend/storage-quota.test.ts',
  'tests/backend/storage-resumable.test.ts',
  'tests/backend/versions.test.ts',
  'tests/backend/trash.test.ts',
  'tests/backend/document-text.test.ts',
  'tests/backend/organization-transfer.test.ts',
  'tests/backend/mail.test.ts',
];
if (extraArgs.length === 0) {
  run(
    'file store suites (S3 bucket)',
    'npx',
    ['vitest', 'run', '--project', 'backend', ...S3_TEST_FILES],
    { ...withoutPostgres, TEST_OBJECT_STORAGE: 's3' },
  );
}
if (existsSync(path.join(rootDir, 'playwright.config.ts')) && extraArgs.length === 0) {
  run('end-to-end tests (Chromium)', 'npx', ['playwright', 'test'], withoutPostgres);
}
