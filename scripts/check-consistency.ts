/**
 * `npm run check-consistency`: compares documents, stored objects and the files on disk, and
 * reports what does not match. Exit code 0 = consistent, 1 = inconsistencies found, 2 = the
 * check could not run. Run with --help for the options.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../server/config.ts';
import type { ConsistencyReport, FixResult } from './consistency/check.ts';
import { checkConsistency, fixOrphans } from './consistency/check.ts';
import { formatReport } from './consistency/report-text.ts';
import { openTarget, UsageError } from './consistency/target.ts';

const HELP = `Usage: npm run check-consistency -- [options]

Checks that every document has its stored file and every stored file its document:
  1. documents whose stored object is missing, or whose object has no file on disk
     (and documents whose recorded size differs from their file);
  2. stored objects in the "documents" bucket that no document points to;
  3. storage objects whose file is missing on disk, and files on disk that no object points to;
  4. organisations whose storage total (what the quota reads) differs from their stored objects
     (read from the database only, not through --url).

Where the data is read from:
  (default)              a stopped server's data directory: the embedded database in
                         DATA_DIR/db and the files in DATA_DIR/storage. The embedded database
                         can be opened by one process only, so the server must be stopped.
  DATABASE_URL=…         rows from PostgreSQL (the server may be running), files in DATA_DIR.
  --url URL              a running server, through its API with the service-role key from
                         SUPABASE_SERVICE_ROLE_KEY (or derived from --data-dir's jwt-secret).
                         Files on disk are compared when --data-dir is that server's directory;
                         otherwise each object's file is probed with a one-byte read.

Options:
  --data-dir DIR         the server's data directory (default: DATA_DIR, else ./.data)
  --grace-minutes N      a stored file without a document that is younger than N minutes may
                         belong to an upload in progress: it is listed but not counted
                         (default 0 for a stopped server, 10 otherwise)
  --fix                  remove stored files that no document points to and that are older than
                         the grace period: uploads whose document was never saved (invisible in
                         the app), and files left by interrupted writes; and count a wrong storage
                         total again from the objects. Documents whose file is missing are never
                         changed. On a running server the grace must be at least 1 minute.
  --limit N              list at most N items of each kind (default 20)
  --json                 print the report as JSON instead of text
  --help                 show this text

Exit code: 0 consistent, 1 inconsistencies found, 2 the check could not run.`;

interface CliOptions {
  url: string | undefined;
  dataDir: string;
  dataDirGiven: boolean;
  graceMinutes: number | undefined;
  fix: boolean;
  limit: number;
  json: boolean;
}

function nonNegative(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0) {
    throw new UsageError(`${name} must be a number of at least 0, got "${value}"`);
  }
  return parsed;
}

function readOptions(argv: string[]): CliOptions | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        'data-dir': { type: 'string' },
        'grace-minutes': { type: 'string' },
        fix: { type: 'boolean', default: false },
        limit: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun with --help for the options.`);
  }
  const { values } = parsed;
  if (values.help) return null;
  const named = values['data-dir'] ?? process.env.DATA_DIR;
  return {
    url: values.url,
    dataDir: path.resolve(named ?? path.join(import.meta.dirname, '..', '.data')),
    dataDirGiven: named !== undefined,
    graceMinutes: nonNegative(values['grace-minutes'], '--grace-minutes'),
    fix: values.fix,
    limit: nonNegative(values.limit, '--limit') ?? 20,
    json: values.json,
  };
}

async function main(argv: string[]): Promise<number> {
  const options = readOptions(argv);
  if (!options) {
    console.log(HELP);
    return 0;
  }
  const opened = await openTarget({
    url: options.url,
    dataDir: options.dataDir,
    dataDirGiven: options.dataDirGiven,
    databaseUrl: process.env.DATABASE_URL || undefined,
    serviceRoleKey:
      process.env.SUPABASE_SERVICE_ROLE_KEY || process.env.SERVICE_ROLE_KEY || undefined,
    jwtSecret: process.env.JWT_SECRET || undefined,
    objects: readConfig().storage.objects,
  });
  try {
    const { target } = opened;
    const stopped = target.kind === 'database' && target.quiescent;
    const graceSeconds = (options.graceMinutes ?? (stopped ? 0 : 10)) * 60;
    if (options.fix && !stopped && graceSeconds < 60) {
      throw new UsageError(
        '--fix on a store a server may be using needs --grace-minutes of at least 1, so that an upload in progress is never removed.',
      );
    }
    const report = await checkConsistency(target, { graceSeconds });
    let fix: { result: FixResult; after: ConsistencyReport } | undefined;
    if (options.fix && report.problems > 0) {
      const result = await fixOrphans(target, report.findings);
      fix = { result, after: await checkConsistency(target, { graceSeconds }) };
    }
    if (options.json) {
      console.log(JSON.stringify({ ...report, fix }, null, 2));
    } else {
      console.log(formatReport(report, { limit: options.limit, ...(fix ? { fix } : {}) }));
    }
    return (fix?.after ?? report).problems === 0 ? 0 : 1;
  } finally {
    await opened.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message =
    error instanceof UsageError
      ? error.message
      : `The check could not run: ${(error as Error).message}`;
  console.error(message);
  process.exitCode = 2;
}
