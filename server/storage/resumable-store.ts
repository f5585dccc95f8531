import { FileStore as TusFileStore } from '@tus/file-store';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** How long a resumable upload may take from its creation; after that it is abandoned. */
export const RESUMABLE_UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

// Upload ids are made by the server (`randomUUID`), never taken from a client.
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `id` is an upload id this server could have made. */
export const isResumableUploadId = (id: string): boolean => UPLOAD_ID.test(id);

/**
 * The bytes of resumable uploads in progress, under `{dataDir}/storage/resumable` (one file and
 * one `.json` description per upload). Nothing there is an object: an object exists only once
 * the finished upload is copied into the object store and its row committed.
 */
export function resumableStore(dataDir: string): TusFileStore {
  return new TusFileStore({
    directory: path.join(dataDir, 'storage', 'resumable'),
    expirationPeriodInMilliseconds: RESUMABLE_UPLOAD_LIFETIME_MS,
  });
}

/**
 * Removes the uploads created more than `RESUMABLE_UPLOAD_LIFETIME_MS` before `now`, finished or
 * not (a finished one that is still here was never committed). Returns how many.
 */
export async function removeAbandonedUploads(store: TusFileStore, now: Date): Promise<number> {
  const entries = await readdir(store.directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const ids = new Set(entries.map((entry) => entry.replace(/\.json$/, '')));
  let removed = 0;
  for (const id of ids) {
    if (!isResumableUploadId(id)) continue;
    const info = await store.configstore.get(id);
    // Without a readable description (a creation cut short), the file's own age counts.
    const described = info?.creation_date ? Date.parse(info.creation_date) : NaN;
    const created = Number.isNaN(described) ? await lastModified(store.directory, id) : described;
    if (now.getTime() - created <= RESUMABLE_UPLOAD_LIFETIME_MS) continue;
    await rm(path.join(store.directory, id), { force: true });
    await rm(path.join(store.directory, `${id}.json`), { force: true });
    removed++;
  }
  return removed;
}

/** When the newest of an upload's two files was last written (0 when neither is there). */
async function lastModified(directory: string, id: string): Promise<number> {
  const times = await Promise.all(
    [id, `${id}.json`].map((name) =>
      stat(path.join(directory, name)).then(
        (stats) => stats.mtimeMs,
        () => 0,
      ),
    ),
  );
  return Math.max(...times);
}
