import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isStoredVersion } from '../../server/storage/file-store.ts';
import type { DiskFile } from './inventory.ts';

/** The directory that holds stored files (see server/storage/file-store.ts for the layout). */
export const storageDirOf = (dataDir: string) => path.join(dataDir, 'storage');

/**
 * Every file under `{dataDir}/storage/objects/{shard}/`. A file named by a version in the
 * right shard stores that version; anything else (a `.part` left by an interrupted write, a
 * stray file) has no version and can never be served. An absent directory is an empty store.
 */
export async function scanStoredFiles(dataDir: string): Promise<DiskFile[]> {
  const storageDir = storageDirOf(dataDir);
  const objectsDir = path.join(storageDir, 'objects');
  const entries = await readdir(objectsDir, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const files: DiskFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    // The file may vanish between listing and stat (a running server finishing a write).
    const info = await stat(full).catch(() => null);
    if (!info) continue;
    const shard = path.basename(entry.parentPath);
    const inShard = path.dirname(entry.parentPath) === objectsDir;
    files.push({
      path: path.relative(storageDir, full).split(path.sep).join('/'),
      version:
        inShard && isStoredVersion(entry.name) && entry.name.startsWith(shard) ? entry.name : null,
      bytes: info.size,
      modifiedAt: info.mtime,
    });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
