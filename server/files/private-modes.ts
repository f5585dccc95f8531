import type { Dirent } from 'node:fs';
import { chmod, lstat, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * The data directory holds personnel files, contracts, the database and the secret that signs
 * every session: only the account that runs Steward may read any of it. Everything under it is
 * owner-only, whatever the umask Steward was started with.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Group and other bits: none of them belongs on anything under the data directory. */
const NOT_OWNER = 0o077;

/** Entries of one directory looked at together while making a tree private. */
const CONCURRENCY = 32;

/**
 * Makes what this process creates from now on owner-only by default (umask 077): every file and
 * folder written without an explicit mode (by Steward or the libraries it uses, such as the
 * resumable-upload store) is then private. The umask belongs to the whole process, so a worker
 * thread, which may not set it, shares the main thread's.
 */
export function usePrivateUmask(): void {
  if (isMainThread) process.umask(NOT_OWNER);
}

/** Creates `dir` (and its parents) when missing, and makes it owner-only. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * Takes the group and other permissions off `root` and everything under it, without following
 * links; answers how many entries it changed. For data directories made before Steward kept
 * them private, and for the embedded database, whose WebAssembly file system sets modes itself
 * (0666 for the files of a new database, 0644 for the caches it writes at every start)
 * regardless of the umask. Entries removed meanwhile are skipped.
 */
export async function makeTreePrivate(root: string): Promise<number> {
  let changed = 0;
  const visit = async (entry: string): Promise<string[]> => {
    const stats = await lstat(entry).catch(ignoreMissing);
    if (!stats || stats.isSymbolicLink()) return [];
    if ((stats.mode & NOT_OWNER) !== 0) {
      const done = await chmod(entry, stats.mode & 0o7700).then(() => true, ignoreMissing);
      if (done) changed += 1;
    }
    if (!stats.isDirectory()) return [];
    const names: Dirent[] =
      (await readdir(entry, { withFileTypes: true }).catch(ignoreMissing)) ?? [];
    return names.map((name) => path.join(entry, name.name));
  };
  let pending = [root];
  while (pending.length > 0) {
    const next: string[] = [];
    for (let start = 0; start < pending.length; start += CONCURRENCY) {
      const found = await Promise.all(pending.slice(start, start + CONCURRENCY).map(visit));
      for (const entries of found) next.push(...entries);
    }
    pending = next;
  }
  return changed;
}

/**
 * Written in the data directory once everything in it has been made private, so that later
 * starts need not look at every stored file again (100,000 files take seconds): what the server
 * writes after that is private already (the umask, the explicit modes, and the embedded
 * database's directory, which `openPglite` looks over at every start).
 */
const PRIVATE_MARKER = '.private';

/**
 * Makes the data directory owner-only, and on the first start of a directory made before
 * Steward kept its files private, everything in it.
 */
export async function makeDataDirPrivate(dataDir: string): Promise<void> {
  await ensurePrivateDir(dataDir);
  const marker = path.join(dataDir, PRIVATE_MARKER);
  if (await stat(marker).then(() => true, ignoreMissing)) return;
  await makeTreePrivate(dataDir);
  await writeFile(marker, "Everything in this directory is the owner's alone (0600 and 0700).\n", {
    mode: PRIVATE_FILE_MODE,
  });
}

function ignoreMissing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}
