import { createHash, randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { storageErrors } from './errors.ts';

/** What was written: the version that names the file, its size, its ETag and its SHA-256. */
export interface StoredFile {
  version: string;
  size: number;
  /** Quoted MD5 of the bytes, as S3 (and so the storage server) reports it. */
  eTag: string;
  /** SHA-256 of the bytes in lower-case hex (Steward's own; finds duplicate documents). */
  sha256: string;
}

// Every file is named by a version this store generated, never by anything a client sent, so
// no object name, bucket name or database value can make a path leave the store's directory.
const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMP_SUFFIX = '.part';

/** Directories whose removals are held (see `FileStore.holdRemovals`), with what waits. */
const removalHolds = new Map<string, { holders: number; pending: Set<string> }>();

/** Whether `value` is a version this store could have made. */
export const isStoredVersion = (value: unknown): value is string =>
  typeof value === 'string' && VERSION.test(value);

/**
 * The bytes of stored objects, under `{dataDir}/storage/objects/{first two hex digits of the
 * version}/{version}`. A write goes to a temporary file beside its final name, is flushed to
 * disk, and only then renamed, so a file with a final name is always complete; the database row
 * that points at it is written after that, and the previous version's file is deleted after the
 * row is committed. A crash can therefore leave only files that no row points at, which
 * `sweep` removes at the next start.
 */
export class FileStore {
  readonly root: string;
  private readonly objectsDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'storage');
    this.objectsDir = path.join(this.root, 'objects');
  }

  /** The file of `version`. Throws for anything that is not a version this store made. */
  pathOf(version: string): string {
    if (!isStoredVersion(version)) throw new Error(`not a storage version: ${version}`);
    return path.join(this.objectsDir, version.slice(0, 2), version);
  }

  /**
   * Streams `chunks` into a new version. Stops reading and throws `EntityTooLarge` as soon as
   * more than `maxBytes` arrive; on any failure the partial file is removed. `version` names
   * the file when the writer must be able to find it again after being stopped (an import's
   * files); it must not exist yet.
   */
  async write(
    chunks: AsyncIterable<Uint8Array>,
    maxBytes: number,
    version: string = randomUUID(),
  ): Promise<StoredFile> {
    const final = this.pathOf(version);
    const temp = final + TEMP_SUFFIX;
    await mkdir(path.dirname(final), { recursive: true });
    const file = await open(temp, 'wx', 0o600);
    const md5 = createHash('md5');
    const sha256 = createHash('sha256');
    let size = 0;
    try {
      try {
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          if (size > maxBytes) throw storageErrors.entityTooLarge();
          md5.update(chunk);
          sha256.update(chunk);
          await writeAll(file, chunk);
        }
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, final);
      await syncDirectory(path.dirname(final));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return { version, size, eTag: `"${md5.digest('hex')}"`, sha256: sha256.digest('hex') };
  }

  /** A new version with the same bytes as `version` (for copy). */
  async copy(version: string): Promise<string> {
    const source = this.pathOf(version);
    const copy = randomUUID();
    const final = this.pathOf(copy);
    const temp = final + TEMP_SUFFIX;
    await mkdir(path.dirname(final), { recursive: true });
    try {
      await copyFile(source, temp);
      const file = await open(temp, 'r+');
      try {
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, final);
      await syncDirectory(path.dirname(final));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return copy;
  }

  /** Opens the file of `version` for reading; null when it does not exist. */
  async open(version: string): Promise<FileHandle | null> {
    try {
      return await open(this.pathOf(version), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Deletes the file of `version`; a file already gone is fine. */
  async remove(version: string): Promise<void> {
    const hold = removalHolds.get(this.objectsDir);
    if (hold) {
      hold.pending.add(version);
      return;
    }
    await rm(this.pathOf(version), { force: true });
  }

  /**
   * Removes the file of `version` and an unfinished write of it (its temporary file), for a
   * writer that may have been stopped mid-way. Returns whether either was there.
   */
  async discard(version: string): Promise<boolean> {
    const final = this.pathOf(version);
    const found = await Promise.all(
      [final, final + TEMP_SUFFIX].map((file) =>
        stat(file).then(
          () => true,
          () => false,
        ),
      ),
    );
    await rm(final + TEMP_SUFFIX, { force: true });
    await this.remove(version);
    return found.includes(true);
  }

  /**
   * Keeps every file of this directory until the returned function is called: removals asked
   * for meanwhile (by any FileStore of this process on the same directory) wait and happen
   * then. A backup holds removals from before it reads the database until it has linked the
   * files the database referred to, so none of them can vanish in between (backup/snapshot.ts).
   * Should the process end first, the deferred files are orphans, which the next start sweeps.
   */
  holdRemovals(): () => Promise<void> {
    let hold = removalHolds.get(this.objectsDir);
    if (!hold) {
      hold = { holders: 0, pending: new Set() };
      removalHolds.set(this.objectsDir, hold);
    }
    hold.holders += 1;
    const held = hold;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders > 0) return;
      removalHolds.delete(this.objectsDir);
      for (const version of held.pending) {
        await rm(this.pathOf(version), { force: true }).catch((error: unknown) => {
          console.error(`storage: could not delete file of version ${version}:`, error);
        });
      }
    };
  }

  /**
   * Deletes every file no row points at: temporary files of writes that never finished, and
   * versions whose row was never committed or was replaced just before a crash.
   * `referenced` answers which of the given versions some row still holds.
   * Must run while no write is in flight (at start-up, before requests are served).
   */
  async sweep(referenced: (versions: string[]) => Promise<Set<string>>): Promise<number> {
    let removed = 0;
    const shards = await readdir(this.objectsDir, { withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      },
    );
    for (const shard of shards) {
      if (!shard.isDirectory()) continue;
      const dir = path.join(this.objectsDir, shard.name);
      const candidates: string[] = [];
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (!entry.isFile()) continue;
        if (isStoredVersion(entry.name) && entry.name.startsWith(shard.name)) {
          candidates.push(entry.name);
        } else {
          // A temporary file, or something this store never names a file.
          await rm(path.join(dir, entry.name), { force: true });
          removed++;
        }
      }
      for (let i = 0; i < candidates.length; i += 1000) {
        const batch = candidates.slice(i, i + 1000);
        const keep = await referenced(batch);
        for (const version of batch) {
          if (keep.has(version)) continue;
          await rm(path.join(dir, version), { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}

async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

/** Makes a rename durable: the directory entry is flushed, not only the file's bytes. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is still atomic there.
  } finally {
    await handle?.close();
  }
}
