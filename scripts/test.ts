import { existsSync } from 'node:fs';
import path from 'node:path';
import { databaseTestFiles } from './database-test-files.ts';
import { runLanes, type Pass } from './test-passes.ts';

// `npm test`: every suite, stopping at a failure.
//   1. vitest: unit, component and backend tests (the backend on PGlite)
//   2. the backend tests that use a database again on PostgreSQL, when TEST_DATABASE_URL names
//      a server (database-test-files.ts: the others would run the same code a second time)
//   3. the suites that exercise the file store again with stored files in an S3 bucket (a local
//      s3rver started by the run, tests/support/s3.ts), on PGlite
//   4. end to end in Chromium, against `npm start` on a temporary data directory
// The first runs alone but for the later passes' set-ups (scripts/test-prepare.ts, at its start,
// while it keeps one core busy): it is the largest, and its component tests wait on a shared
// server with short timeouts. Then 2 runs beside 4 followed by 3: the end-to-end pass leaves
// most of this 2-core machine idle (184-195 s of CPU, browsers included, over the 294 s it took on a quiet
// machine: about 0.65 of a core), so the PostgreSQL pass uses the rest instead of following it.
// The S3 pass follows the end-to-end pass, the shorter of the two (372 s against 417 s in a
// fresh clone's run on a quiet machine), so that it runs beside the PostgreSQL pass rather than
// alone after it. A failed pass stops its own lane; the other lane runs to its end.
const rootDir = path.resolve(import.meta.dirname, '..');
const extraArgs = process.argv.slice(2);
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;

const pglite: Pass = {
  title: 'unit, component and backend tests (PGlite)',
  command: 'npx',
  // The cluster project needs PostgreSQL, haproxy and several processes: `npm run test:cluster`.
  args: ['vitest', 'run', '--project', 'app', '--project', 'backend', ...extraArgs],
  env: withoutPostgres,
};
// Listed while the first pass runs (a `vitest list` of their own, 3-7 s), not before it.
const postgresFiles =
  TEST_DATABASE_URL && extraArgs.length === 0 ? databaseTestFiles(rootDir) : undefined;
postgresFiles?.catch(() => {}); // reported where it is awaited, when the pass is to start
const postgres = async (): Promise<Pass[]> =>
  TEST_DATABASE_URL
    ? [
        {
          title: 'backend tests (PostgreSQL)',
          command: 'npx',
          args: [
            'vitest',
            'run',
            '--project',
            'backend',
            ...(extraArgs.length > 0 ? extraArgs : await postgresFiles!),
          ],
          env: process.env,
        },
      ]
    : [];
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
const s3: Pass[] =
  extraArgs.length === 0
    ? [
        {
          title: 'file store suites (S3 bucket)',
          command: 'npx',
          args: ['vitest', 'run', '--project', 'backend', ...S3_TEST_FILES],
          env: { ...withoutPostgres, TEST_OBJECT_STORAGE: 's3' },
        },
      ]
    : [];
const endToEnd: Pass[] =
  existsSync(path.join(rootDir, 'playwright.config.ts')) && extraArgs.length === 0
    ? [
        {
          title: 'end-to-end tests (Chromium)',
          command: 'npx',
          args: ['playwright', 'test'],
          env: withoutPostgres,
        },
      ]
    : [];

// Beside the first pass, the later passes' set-ups (scripts/test-prepare.ts): that pass keeps
// one core busy at its start and the other idle.
const prepare: Pass[] =
  extraArgs.length === 0
    ? [
        {
          title: 'templates and app build for the later passes',
          // Node with tsx as its loader: one process rather than npx's and tsx's three.
          command: process.execPath,
          args: [
            '--import',
            'tsx',
            'scripts/test-prepare.ts',
            ...(endToEnd.length > 0 ? ['--app'] : []),
          ],
          env: process.env,
        },
      ]
    : [];

// The end-to-end pass's output is shown as it comes, the others' whole as each ends.
const phases = [
  async () => [[pglite], prepare],
  async () => [[...endToEnd, ...s3], await postgres()],
];
const results = [];
for (const phase of phases) {
  const lanes = await phase();
  const nonEmpty = lanes.filter((lane) => lane.length > 0);
  if (nonEmpty.length === 0) continue;
  results.push(...(await runLanes(nonEmpty, { cwd: rootDir })));
  if (results.some((result) => result.status !== 0)) break;
}
console.log('\n=== npm test ===');
for (const { title, status, seconds, failures } of results) {
  console.log(
    `${status === 0 ? 'passed' : 'FAILED'}  ${seconds.toFixed(0).padStart(5)}s  ${title}`,
  );
  for (const line of failures) console.log(`                ${line}`);
}
const failed = results.find((result) => result.status !== 0);
process.exit(failed ? failed.status : 0);
