import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ObjectStorageSettings } from '../../server/config/object-storage-settings.ts';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { deriveKeys } from '../../server/http/keys.ts';
import { keyRole } from './api-source.ts';
import type { CheckTarget } from './check.ts';
import { processesUsing } from './in-use.ts';

/** A problem with how the check was asked to run (exit code 2, with this text). */
export class UsageError extends Error {}

export interface TargetRequest {
  /** A running server's URL (API mode); else the database is opened directly. */
  url?: string | undefined;
  dataDir: string;
  /** Whether the data directory was named (flag or DATA_DIR) rather than the default. */
  dataDirGiven: boolean;
  databaseUrl?: string | undefined;
  serviceRoleKey?: string | undefined;
  jwtSecret?: string | undefined;
  /** Where the server keeps its files (steward.toml `[object_storage]`); default the disk. */
  objects?: ObjectStorageSettings;
}

export interface OpenedTarget {
  target: CheckTarget;
  close(): Promise<void>;
}

/** The service-role key made from this data directory's secret (or JWT_SECRET), if any. */
async function dataDirServiceKey(dataDir: string, jwtSecret?: string): Promise<string | null> {
  if (jwtSecret) return deriveKeys(jwtSecret).serviceRoleKey;
  const secret = await readFile(path.join(dataDir, 'jwt-secret'), 'utf8').catch(() => null);
  return secret ? deriveKeys(secret.trim()).serviceRoleKey : null;
}

function describePostgres(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    throw new UsageError('DATABASE_URL is not a valid connection string');
  }
}

async function openApiTarget(request: TargetRequest & { url: string }): Promise<OpenedTarget> {
  const url = request.url.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http(s) address: ${url}`);
  const fromDataDir = await dataDirServiceKey(request.dataDir, request.jwtSecret);
  const key = request.serviceRoleKey || fromDataDir;
  if (!key) {
    throw new UsageError(
      "Set SUPABASE_SERVICE_ROLE_KEY to the server's service-role key (or give --data-dir of the server, whose key is derived from its jwt-secret).",
    );
  }
  if (keyRole(key) !== 'service_role') {
    throw new UsageError(
      'SUPABASE_SERVICE_ROLE_KEY is not a service-role key (its role claim differs).',
    );
  }
  // The files on disk are compared only when the data directory is provably this server's:
  // another directory's files would be reported as missing or orphaned.
  let dataDir: string | null = null;
  let noDiskReason: string | undefined;
  if (fromDataDir === key) {
    dataDir = request.dataDir;
  } else {
    noDiskReason = request.dataDirGiven
      ? `${request.dataDir} is not this server's data directory (its key differs)`
      : 'no data directory given (--data-dir)';
  }
  return {
    target: {
      kind: 'api',
      url,
      serviceRoleKey: key,
      dataDir,
      ...(request.objects ? { objects: request.objects } : {}),
      ...(noDiskReason ? { noDiskReason } : {}),
    },
    close: async () => {},
  };
}

async function openPgliteTarget(
  dataDir: string,
  objects: ObjectStorageSettings | undefined,
): Promise<OpenedTarget> {
  const dbDir = path.join(dataDir, 'db');
  if (!(await stat(path.join(dbDir, 'PG_VERSION')).catch(() => null))) {
    throw new UsageError(
      `There is no Steward database in ${dbDir}. Give the server's data directory with --data-dir or DATA_DIR, DATABASE_URL for PostgreSQL, or --url for a running server.`,
    );
  }
  const users = await processesUsing(dbDir);
  if (users === null) {
    console.warn(
      `Warning: cannot tell whether a server is using ${dataDir}; make sure it is stopped.`,
    );
  } else if (users.length > 0) {
    throw new UsageError(
      `${dataDir} is in use by process ${users.join(', ')} (a running server?). Its embedded database can be opened by one process only: stop the server first, or check it while it runs with --url and the service-role key.`,
    );
  }
  const db: Database = await openPglite({ dataDir: dbDir });
  return {
    target: {
      kind: 'database',
      db,
      label: `PGlite at ${dbDir}`,
      dataDir,
      ...(objects ? { objects } : {}),
      quiescent: true,
    },
    close: () => db.close(),
  };
}

/** Opens what the request names; the caller must `close()` it. */
export async function openTarget(request: TargetRequest): Promise<OpenedTarget> {
  if (request.url) return openApiTarget({ ...request, url: request.url });
  if (request.databaseUrl) {
    const label = describePostgres(request.databaseUrl);
    const db = await openPostgres(request.databaseUrl);
    const storageExists = await stat(path.join(request.dataDir, 'storage')).catch(() => null);
    return {
      target: {
        kind: 'database',
        db,
        label,
        // Rows in PostgreSQL, files still under DATA_DIR/storage (or in the bucket).
        dataDir:
          storageExists || request.dataDirGiven || request.objects?.backend === 's3'
            ? request.dataDir
            : null,
        ...(request.objects ? { objects: request.objects } : {}),
        quiescent: false,
      },
      close: () => db.close(),
    };
  }
  return openPgliteTarget(request.dataDir, request.objects);
}
