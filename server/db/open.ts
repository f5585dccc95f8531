import path from 'node:path';
import type { DatabaseSettings } from '../config.ts';
import { ensurePrivateDir } from '../files/private-modes.ts';
import type { Database } from './database.ts';
import { PgliteHost } from './pglite-host.ts';
import { openPostgres } from './postgres.ts';

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** How long one request's database work may run, per role; without it, unbounded. */
  database?: DatabaseSettings;
  /** For a new embedded database: a dumped data directory to start from (tests). */
  loadDataDir?: Uint8Array;
}

/** PostgreSQL when a connection string is given, else PGlite persisted under `dataDir/db`. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      ...(options.database
        ? {
            timeoutsMs: options.database.statementTimeoutMs,
            preparedStatements: options.database.preparedStatements,
          }
        : {}),
    });
  }
  const dir = path.join(options.dataDir, 'db');
  await ensurePrivateDir(dir);
  return PgliteHost.open({
    dataDir: dir,
    ...(options.database ? { timeoutsMs: options.database.statementTimeoutMs } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
}
