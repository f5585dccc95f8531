import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReadEntry } from 'tar';
import { extract, list } from 'tar';
import type { ServerConfig } from '../config.ts';
import { knownMigrationVersions } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { makeTreePrivate, PRIVATE_DIR_MODE } from '../files/private-modes.ts';
import { isStoredVersion, versionPath } from '../storage/file-store.ts';
import { openFileStore } from '../storage/open-file-store.ts';
import { BackupError } from './backup.ts';
import type { BackupManifest } from './manifest.ts';
import { DATABASE_DUMP_NAME, MANIFEST_NAME, readManifest } from './manifest.ts';

export interface RestoreOptions {
  config: ServerConfig;
  /** A backup made by `npm run backup`. */
  file: string;
}

/** The largest manifest read (a real one is a few kilobytes). */
const MAX_MANIFEST_BYTES = 1024 * 1024;
const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const SHARD = /^[0-9a-f]{2}$/;

/**
 * `npm run restore -- <file>`: restores a backup into the configured data directory, which must
 * be empty or missing. Every entry of the archive is checked before anything is written (only
 * the paths a backup holds, no `..`, no absolute paths, no links); the archive is then unpacked
 * into a new directory beside the target, its database opened and checked against the manifest,
 * and only then renamed into place, so a refused or failed restore leaves nothing behind.
 */
export async function restoreInstallation(
  options: RestoreOptions,
): Promise<{ dataDir: string; manifest: BackupManifest }> {
  const { config } = options;
  if (config.databaseUrl) {
    throw new BackupError(
      'This installation uses PostgreSQL (DATABASE_URL): restore it with pg_restore and the storage folder, as the README describes under "Backup and restore".',
    );
  }
  const file = path.resolve(options.file);
  const fileStat = await stat(file).catch(() => null);
  if (!fileStat?.isFile()) throw new BackupError(`There is no backup file at ${file}.`);
  const target = config.dataDir;
  await refuseNonEmpty(target);

  const manifest = readManifest(
    await checkEntries(file),
    await knownMigrationVersions(path.join(config.supabaseDir, 'migrations')),
  );

  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.restoring-${randomBytes(4).toString('hex')}`;
  await mkdir(temp, { mode: PRIVATE_DIR_MODE });
  try {
    await extract({ file, cwd: temp, strict: true, filter: (entryPath) => allowed(entryPath) });
    await loadDatabase(temp, manifest);
    await rm(path.join(temp, DATABASE_DUMP_NAME));
    await rm(path.join(temp, MANIFEST_NAME));
    await keepRestoredFiles(temp, config);
    // Whatever modes the archive recorded (a backup of an older Steward's data directory):
    // the restored installation is the owner's alone.
    await makeTreePrivate(temp);
    // An empty target directory is replaced; anything put there meanwhile makes this fail.
    await rmdir(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The backup could not be restored: ${(error as Error).message}`);
  }
  return { dataDir: target, manifest };
}

/**
 * Hands the unpacked files to the configured file store: on disk they already are where the
 * store keeps them; an S3 bucket receives each of them (the same version always holds the same
 * bytes, so one already there is merely written again). Should the restore fail after this,
 * what reached the bucket is unreferenced, and the start-up sweep removes it.
 */
async function keepRestoredFiles(dataDir: string, config: ServerConfig): Promise<void> {
  const store = openFileStore(dataDir, config.storage.objects);
  const objectsDir = path.join(dataDir, 'storage', 'objects');
  for (const shard of await readdir(objectsDir).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(objectsDir, shard))) {
      if (!isStoredVersion(name)) continue;
      await store.keep(path.join(dataDir, 'storage', ...versionPath(name).split('/')), name);
    }
  }
}

async function refuseNonEmpty(target: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw new BackupError(`${target} is a file, not a data directory.`);
    throw error;
  }
  if (names.length > 0) {
    throw new BackupError(
      `${target} is not empty: a backup is restored only into an empty data directory (set DATA_DIR to a new one).`,
    );
  }
}

/**
 * Reads every entry's header (and the manifest's text) without writing anything; throws a
 * BackupError for a damaged archive, an unsafe or unexpected entry, or a missing part.
 */
async function checkEntries(file: string): Promise<string> {
  let manifestText: string | null = null;
  let hasDatabase = false;
  let problem: string | null = null;
  const chunks: Buffer[] = [];
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const entryPath = entry.header.path ?? entry.path;
        problem ??= entryProblem(entryPath, entry.type);
        if (entry.type === 'File' && entryPath === DATABASE_DUMP_NAME) hasDatabase = true;
        if (entry.type === 'File' && entryPath === MANIFEST_NAME && !problem) {
          let size = 0;
          entry.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_MANIFEST_BYTES) chunks.push(chunk);
          });
          entry.on('end', () => {
            manifestText = size <= MAX_MANIFEST_BYTES ? Buffer.concat(chunks).toString('utf8') : '';
          });
        }
      },
    });
  } catch (error) {
    throw new BackupError(
      `${file} is not a readable backup (damaged, or not a .tar.gz): ${(error as Error).message}`,
    );
  }
  if (problem) throw new BackupError(`${problem}: refused, nothing was restored.`);
  if (manifestText === null) {
    throw new BackupError(`${file} is not a Steward backup (it has no ${MANIFEST_NAME}).`);
  }
  if (!hasDatabase) {
    throw new BackupError(`${file} is incomplete: it holds no database (${DATABASE_DUMP_NAME}).`);
  }
  return manifestText;
}

/** Why an entry may not be restored, or null when it is one a backup holds. */
function entryProblem(entryPath: string, type: string): string | null {
  const parts = entryPath.replace(/\/$/, '').split('/');
  if (
    entryPath.startsWith('/') ||
    /^[A-Za-z]:/.test(entryPath) ||
    entryPath.includes('\\') ||
    parts.some((part) => part === '..' || part === '.' || part === '')
  ) {
    return `The backup holds an unsafe path (${entryPath})`;
  }
  if (type !== 'File' && type !== 'Directory') {
    return `The backup holds a ${type} entry (${entryPath}), which a Steward backup never has`;
  }
  if (!allowed(entryPath, type)) {
    return `The backup holds an unexpected entry (${entryPath})`;
  }
  return null;
}

/** Whether `entryPath` is where a backup puts a file (or, for directories, a folder). */
function allowed(entryPath: string, type = ''): boolean {
  const parts = entryPath.replace(/\/$/, '').split('/');
  const isDir = type === 'Directory' || (type === '' && entryPath.endsWith('/'));
  const [first, second, shard, name] = parts;
  switch (parts.length) {
    case 1:
      return isDir
        ? first === 'storage' || first === 'function-secrets'
        : first === MANIFEST_NAME || first === DATABASE_DUMP_NAME || first === 'jwt-secret';
    case 2:
      if (first === 'function-secrets') return !isDir && SECRET_NAME.test(second!);
      return isDir && first === 'storage' && second === 'objects';
    case 3:
      return isDir && first === 'storage' && second === 'objects' && SHARD.test(shard!);
    case 4:
      return (
        !isDir &&
        first === 'storage' &&
        second === 'objects' &&
        SHARD.test(shard!) &&
        isStoredVersion(name) &&
        name.startsWith(shard!)
      );
    default:
      return false;
  }
}

/** Creates the database in `{dir}/db` from the dump and checks it is the one the manifest names. */
async function loadDatabase(dir: string, manifest: BackupManifest): Promise<void> {
  const dump = await readFile(path.join(dir, DATABASE_DUMP_NAME));
  let db: Awaited<ReturnType<typeof openPglite>>;
  try {
    db = await openPglite({ dataDir: path.join(dir, 'db'), loadDataDir: new Blob([dump]) });
  } catch (error) {
    throw new BackupError(
      `The database in the backup could not be opened (the file is damaged): ${(error as Error).message}`,
    );
  }
  try {
    const { rows } = await db.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    );
    const found = rows.map((row) => row.version).join(',');
    if (found !== manifest.migrations.join(',')) {
      throw new BackupError(
        'The database in the backup does not match its manifest (the file is damaged).',
      );
    }
  } finally {
    await db.close();
  }
}
