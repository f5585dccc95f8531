import path from 'node:path';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import {
  checkConsistency,
  fixOrphans,
  type ConsistencyReport,
  type FixResult,
} from '../../scripts/consistency/check.ts';

/**
 * The consistency check (scripts/check-consistency.ts) on a stopped server's data directory,
 * in this process: every orphan counts, however young. With `fix`, orphans are then removed
 * and the store checked again. With `databaseUrl` the rows are on that PostgreSQL database
 * (the files still in `dataDir`).
 */
export async function checkStoppedDataDir(
  dataDir: string,
  options: { fix?: boolean; databaseUrl?: string } = {},
): Promise<{ report: ConsistencyReport; fixed?: FixResult; after?: ConsistencyReport }> {
  const db: Database = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite({ dataDir: path.join(dataDir, 'db') });
  try {
    const target = {
      kind: 'database' as const,
      db,
      label: options.databaseUrl ? `PostgreSQL and ${dataDir}` : `PGlite at ${dataDir}`,
      dataDir,
      quiescent: true,
    };
    const report = await checkConsistency(target, { graceSeconds: 0 });
    if (!options.fix) return { report };
    const fixed = await fixOrphans(target, report.findings);
    return { report, fixed, after: await checkConsistency(target, { graceSeconds: 0 }) };
  } finally {
    await db.close();
  }
}

/** One line per kind of finding, for a bench's output. */
export function findingLines(report: ConsistencyReport, indent = '    '): string[] {
  const f = report.findings;
  return [
    `${indent}documents whose file is missing:            ${f.documentsWithoutFile.length}`,
    `${indent}documents whose size differs from the file: ${f.sizeMismatches.length}`,
    `${indent}stored files with no document:              ${f.orphanObjects.length}`,
    `${indent}storage objects whose file is missing:      ${f.objectsWithoutFile.length}`,
    `${indent}files on disk with no storage object:       ${f.orphanFiles.length}`,
    `${indent}storage totals that differ from the files:  ${f.storageTotalDrifts.length}`,
  ];
}
