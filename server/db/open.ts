import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when a connection string is given, else PGlite persisted under `dataDir/db`. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const dir = path.join(options.dataDir, 'db');
  await mkdir(dir, { recursive: true });
  return openPglite({ dataDir: dir });
}
