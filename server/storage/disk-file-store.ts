import { createHash, randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { copyFile, link, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  abandonFile,
  appendChunk,
  finishFile,
  openTempFile,
  writeWholeFile,
} from './durable-writes.ts';
import { storageErrors } from './errors.ts';
import type { FileStore, OpenedFile, StoredEntry, StoredFile } from './file-store.ts';
import { heldRemovals, isStoredVersion, missingFileError, versionPath } from './file-store.ts';

const TEMP_SUFFIX = '.part';

/** A body up to this size is written in one message to a file thread (`write`). */
const WHOLE_FILE_BYTES = 256 * 1024;

/**
 * The bytes of stored objects on the local disk, under `{dataDir}/storage/objects/{first two hex
 * digits of the version}/{version}`. A write goes to a temporary file beside its final name, is
 * flushed to disk, and only then renamed, so a file with a final name is always complete; the
 * database row that points at it is written after that, and the previous version's file is
 * deleted after the row is committed. A crash can therefore leave only files that no row points
 * at, which `sweep` removes at the next start.
 */
export class DiskFileStore implements FileStore {
  readonly root: string;
  readonly location: string;
  private readonly objectsDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'storage');
    this.objectsDir = path.join(this.root, 'objects');
    this.location = this.objectsDir;
  }

  /** The file of `version`. Throws for anything that is not a version this store made. */
  pathOf(version: string): string {
    return path.join(this.root, ...versionPath(version).split('/'));
  }

  async write(
    chunks: AsyncIterable<Uint8Array>,
    maxBytes: number,
    version: string = randomUUID(),
  ): Promise<StoredFile> {
    const final = this.pathOf(version);
    const temp = final + TEMP_SUFFIX;
    const md5 = createHash('md5');
    const sha256 = createHash('sha256');
    let size = 0;
    // A small body is gathered here and written whole by a file thread, in one message; a
    // larger one goes to a temporary file as it comes (durable-writes.ts).
    const gathered: Uint8Array[] = [];
    let fd: number | undefined;
    try {
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (size > maxBytes) throw storageErrors.entityTooLarge();
        md5.update(chunk);
        sha256.update(chunk);
        if (fd === undefined && size <= WHOLE_FILE_BYTES) {
          gathered.push(chunk);
          continue;
        }
        if (fd === undefined) {
          fd = await openTempFile(temp);
          for (const earlier of gathered.splice(0)) await appendChunk(fd, earlier);
        }
        await appendChunk(fd, chunk);
      }
    } catch (error) {
      // A file left by a failing thread is a temporary one, which the next start sweeps.
      if (fd !== undefined) await abandonFile(fd, temp).catch(() => undefined);
      throw error;
    }
    // Flushed, renamed, the directory flushed; the temporary file deleted on failure.
    if (fd === undefined) await writeWholeFile(temp, final, gathered);
    else await finishFile(fd, temp, final);
    return { version, size, eTag: `"${md5.digest('hex')}"`, sha256: sha256.digest('hex') };
  }

  /** The scratch file is the version's own temporary file, which the sweep removes if left. */
  scratchFile(name: string): string {
    return this.pathOf(name) + TEMP_SUFFIX;
  }

  async keep(file: string, version: string): Promise<void> {
    const final = this.pathOf(version);
    await mkdir(path.dirname(final), { recursive: true });
    await rename(file, final);
    await syncDirectory(path.dirname(final));
  }

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

  async open(version: string): Promise<OpenedFile | null> {
    let file: FileHandle;
    try {
      file = await open(this.pathOf(version), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await file.stat();
      return {
        size,
        stream: async (range) => file.createReadStream(range ?? {}),
        close: () => file.close(),
      };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  async sizeOf(version: string): Promise<number | null> {
    return stat(this.pathOf(version)).then(
      (stats) => stats.size,
      () => null,
    );
  }

  async withLocalFiles<T>(versions: string[], use: (paths: string[]) => Promise<T>): Promise<T> {
    const paths = versions.map((version) => this.pathOf(version));
    for (const [index, file] of paths.entries()) {
      if (!(await stat(file).catch(() => null))) throw missingFileError(versions[index]!);
    }
    return use(paths);
  }

  async remove(version: string): Promise<void> {
    if (heldRemovals.defer(this.location, version)) return;
    await rm(this.pathOf(version), { force: true });
  }

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

  holdRemovals(): () => Promise<void> {
    return heldRemovals.hold(this.location, (version) => rm(this.pathOf(version), { force: true }));
  }

  async saveCopy(version: string, destination: string): Promise<boolean> {
    const source = this.pathOf(version);
    await mkdir(path.dirname(destination), { recursive: true });
    try {
      try {
        await link(source, destination);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
        await copyFile(source, destination);
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return false;
    }
  }

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

  /**
   * Every file under `objects/{shard}/`. A file named by a version in the right shard stores
   * that version; anything else (a `.part` left by an interrupted write, a stray file) has no
   * version and can never be served. An absent directory is an empty store.
   */
  async inventory(): Promise<StoredEntry[]> {
    const entries = await readdir(this.objectsDir, { recursive: true, withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      },
    );
    const files: StoredEntry[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      // The file may vanish between listing and stat (a running server finishing a write).
      const info = await stat(full).catch(() => null);
      if (!info) continue;
      const shard = path.basename(entry.parentPath);
      const inShard = path.dirname(entry.parentPath) === this.objectsDir;
      files.push({
        path: path.relative(this.root, full).split(path.sep).join('/'),
        version:
          inShard && isStoredVersion(entry.name) && entry.name.startsWith(shard)
            ? entry.name
            : null,
        bytes: info.size,
        modifiedAt: info.mtime,
      });
    }
    return files.sort((a, b) => a.path.localeCompare(b.path));
  }

  async removeEntry(entryPath: string): Promise<void> {
    const full = path.join(this.root, ...entryPath.split('/'));
    if (path.relative(this.objectsDir, full).startsWith('..')) {
      throw new Error(`not an entry of the store: ${entryPath}`);
    }
    await rm(full, { force: true });
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
