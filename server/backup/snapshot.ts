import { randomUUID } from 'node:crypto';
import { cp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/database.ts';
import { type FileStore, isStoredVersion, versionPath } from '../storage/file-store.ts';
import type { BackupManifest } from './manifest.ts';
import { DATABASE_DUMP_NAME, MANIFEST_NAME, newManifest } from './manifest.ts';

/** Where snapshots are put together, inside the data directory (so files can be hard-linked). */
const SNAPSHOTS_DIR = 'backup-snapshots';
const SNAPSHOT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Files of the data directory besides the database and the stored objects that a backup keeps. */
const SECRET_FILES = ['jwt-secret', 'function-secrets'];

/** A database that can read and then dump itself with nothing happening in between. */
export interface DumpableDatabase {
  dumpWith<T>(file: string, read: (db: Queryable) => Promise<T>): Promise<T>;
}

/** A consistent copy of an installation, laid out as the backup archive holds it. */
export interface Snapshot {
  id: string;
  dir: string;
  manifest: BackupManifest;
}

/**
 * Puts a consistent copy of the installation in `dataDir` together in a new directory: the
 * database dump, the stored files its `storage.objects` rows point at, the secrets, and the
 * manifest. Works the same on a running server's database (the database worker dumps it) and on
 * a stopped one's.
 *
 * Why it is consistent while uploads and deletions go on: the store writes a file before the row
 * that points at it is committed, and deletes a file only after the row that pointed at it is
 * gone (storage/file-store.ts). So every file the dumped rows point at exists when the dump is
 * taken; holding removals from before the dump until those files are copied here keeps each of
 * them until the snapshot has its own copy (a hard link on disk, a download from a bucket; on a
 * bucket shared by several processes, only this process's removals are held:
 * docs/several-processes.md). Files written after the dump are not referenced by it and are
 * left out, as are unfinished resumable uploads. Writes are never paused: a hard link takes
 * microseconds and the dump runs in the database's own thread.
 */
export async function takeSnapshot(
  dataDir: string,
  store: FileStore,
  db: DumpableDatabase,
  now: Date,
): Promise<Snapshot> {
  const id = randomUUID();
  const dir = snapshotDir(dataDir, id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const release = store.holdRemovals();
    let state: { versions: string[]; migrations: string[] };
    let linked: { files: number; missing: string[] };
    try {
      state = await db.dumpWith(path.join(dir, DATABASE_DUMP_NAME), readState);
      linked = await linkFiles(store, state.versions, path.join(dir, 'storage', 'objects'));
    } finally {
      await release();
    }
    for (const name of SECRET_FILES) {
      const source = path.join(dataDir, name);
      if (await stat(source).catch(() => null)) {
        await cp(source, path.join(dir, name), { recursive: true, preserveTimestamps: true });
      }
    }
    const manifest = newManifest({
      migrations: state.migrations,
      files: linked.files,
      missingFiles: linked.missing,
      createdAt: now,
    });
    await writeFile(path.join(dir, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    return { id, dir, manifest };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The directory of snapshot `id`; throws for anything that is not a snapshot id. */
export function snapshotDir(dataDir: string, id: string): string {
  if (!SNAPSHOT_ID.test(id)) throw new Error(`not a backup snapshot id: ${id}`);
  return path.join(dataDir, SNAPSHOTS_DIR, id);
}

async function readState(db: Queryable): Promise<{ versions: string[]; migrations: string[] }> {
  const objects = await db.query<{ version: string | null }>(
    'select version from storage.objects where version is not null',
  );
  const migrations = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations order by version',
  );
  return {
    versions: objects.rows.map((row) => row.version).filter(isStoredVersion),
    migrations: migrations.rows.map((row) => row.version),
  };
}

/**
 * Puts the files of `versions` under `target` in the store's layout: hard links (or, across file
 * systems, copies) of files on disk, downloads of objects in a bucket.
 */
async function linkFiles(
  store: FileStore,
  versions: string[],
  target: string,
): Promise<{ files: number; missing: string[] }> {
  const missing: string[] = [];
  let files = 0;
  for (const version of new Set(versions)) {
    const destination = path.join(target, ...versionPath(version).split('/').slice(1));
    if (await store.saveCopy(version, destination)) files += 1;
    else missing.push(version);
  }
  return { files, missing };
}
