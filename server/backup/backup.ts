import { openFileStore } from '../storage/open-file-store.ts';
import { randomBytes } from 'node:crypto';
import { open, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { create } from 'tar';
import type { ServerConfig } from '../config.ts';
import { DataDirInUseError, lockDataDir } from '../db/data-dir-lock.ts';
import { openPglite } from '../db/pglite.ts';
import { PRIVATE_FILE_MODE } from '../files/private-modes.ts';
import { deriveKeys, loadJwtSecret } from '../http/keys.ts';
import type { BackupManifest } from './manifest.ts';
import { DATABASE_DUMP_NAME, MANIFEST_NAME } from './manifest.ts';
import { dumpPgliteTo } from '../db/pglite-dump.ts';
import type { Snapshot } from './snapshot.ts';
import { snapshotDir, takeSnapshot } from './snapshot.ts';

/** A refusal or failure of a backup or restore, with a message for the person who ran it. */
export class BackupError extends Error {}

export interface BackupOptions {
  config: ServerConfig;
  /** The archive to write (`.tar.gz`); it must not exist yet. */
  file: string;
  /** The running server's address (default: this machine at the configured port). */
  serverUrl?: string;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  /** Whether a running server took the snapshot, or the tool opened the stopped data directory. */
  taken: 'by the running server' | 'from the stopped data directory';
}

/**
 * `npm run backup -- <file>`: one `.tar.gz` with the installation's database, stored files and
 * secrets, consistent even while the server runs (see snapshot.ts). A running server (found by
 * its lock on the data directory) is asked for the snapshot over HTTP with the service-role key;
 * a stopped installation is opened directly, holding the lock so that no server starts
 * meanwhile. The archive is written beside its name and renamed when complete, so a failed
 * backup leaves no partial file under that name; it is the owner's alone (0600).
 */
export async function backupInstallation(options: BackupOptions): Promise<BackupResult> {
  const { config } = options;
  if (config.databaseUrl) {
    throw new BackupError(
      'This installation uses PostgreSQL (DATABASE_URL): back it up with pg_dump and a copy of the storage folder, as the README describes under "Backup and restore".',
    );
  }
  const file = path.resolve(options.file);
  if (await stat(file).catch(() => null)) {
    throw new BackupError(`${file} already exists: choose a new file name for the backup.`);
  }
  if (!(await stat(path.join(config.dataDir, 'db')).catch(() => null))) {
    throw new BackupError(
      `There is no Steward installation in ${config.dataDir} (set DATA_DIR to the data directory to back up).`,
    );
  }
  const { snapshot, taken } = await snapshotInstallation(options);
  try {
    const temp = `${file}.${randomBytes(4).toString('hex')}.partial`;
    try {
      await writeArchive(snapshot.dir, temp);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  } finally {
    await rm(snapshot.dir, { recursive: true, force: true });
    // The folder of snapshots too, unless another backup is using it.
    await rmdir(path.dirname(snapshot.dir)).catch(() => undefined);
  }
  return { file, bytes: (await stat(file)).size, manifest: snapshot.manifest, taken };
}

async function snapshotInstallation(
  options: BackupOptions,
): Promise<{ snapshot: Snapshot; taken: BackupResult['taken'] }> {
  const { config } = options;
  let unlock: () => Promise<void>;
  try {
    unlock = await lockDataDir(path.join(config.dataDir, 'db'));
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    return { snapshot: await askServer(options, error.pid), taken: 'by the running server' };
  }
  try {
    const db = await openPglite({ dataDir: path.join(config.dataDir, 'db') });
    try {
      const dumpable = {
        async dumpWith<T>(dumpFile: string, read: (q: typeof db) => Promise<T>): Promise<T> {
          const result = await read(db);
          await dumpPgliteTo(db.pglite, dumpFile);
          return result;
        },
      };
      const snapshot = await takeSnapshot(
        config.dataDir,
        openFileStore(config.dataDir, config.storage.objects),
        dumpable,
        new Date(),
      );
      return { snapshot, taken: 'from the stopped data directory' };
    } finally {
      await db.close();
    }
  } finally {
    await unlock();
  }
}

/** Asks the server that holds the data directory (process `pid`) for a snapshot. */
async function askServer(options: BackupOptions, pid: number): Promise<Snapshot> {
  const { config } = options;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = options.serverUrl ?? `http://${host}:${config.port}`;
  const { serviceRoleKey } = deriveKeys(await loadJwtSecret(config.dataDir, config.jwtSecret));
  let response: Response;
  try {
    response = await fetch(new URL('/backup/v1/snapshot', url), {
      method: 'POST',
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
    });
  } catch {
    throw new BackupError(
      `A server (process ${pid}) runs on ${config.dataDir} but does not answer at ${url}: start the backup with the same PORT and HOST as the server.`,
    );
  }
  const body = (await response.json().catch(() => null)) as {
    snapshot?: string;
    manifest?: BackupManifest;
    message?: string;
  } | null;
  if (!response.ok || !body?.snapshot || !body.manifest) {
    throw new BackupError(
      `The server at ${url} refused the backup (${response.status}): ${body?.message ?? response.statusText}`,
    );
  }
  return {
    id: body.snapshot,
    dir: snapshotDir(config.dataDir, body.snapshot),
    manifest: body.manifest,
  };
}

/** Packs the snapshot in `dir` into a gzip-compressed tar at `file`, manifest first. */
async function writeArchive(dir: string, file: string): Promise<void> {
  const entries = [MANIFEST_NAME, DATABASE_DUMP_NAME];
  for (const name of ['storage', 'jwt-secret', 'function-secrets']) {
    if (await stat(path.join(dir, name)).catch(() => null)) entries.push(name);
  }
  // The fastest level: stored documents (PDF, Office, images) are compressed already, and a
  // level 1 archive of the database is about 15 % larger than one of level 6 in half the time.
  // It holds the secret that signs every session: readable by the owner only.
  await create(
    { file, mode: PRIVATE_FILE_MODE, cwd: dir, gzip: { level: 1 }, portable: true },
    entries,
  );
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
