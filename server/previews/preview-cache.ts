import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isStoredVersion } from '../storage/file-store.ts';

/** The caches of this process, by directory: a purge reaches the cache that routes read. */
const caches = new Map<string, PreviewCache>();

/** Where the rendered previews of a data directory are kept. */
const directoryOf = (dataDir: string) => path.join(dataDir, 'previews');

/**
 * Rendered Word and Excel previews on disk, one file per stored version of a document's file
 * (`{dataDir}/previews/{version}.html`): a stored version's bytes never change, so a new
 * version of a document is a new key and renders anew, and an old render is never shown for a
 * new file. The whole installation's renders stay within `maxBytes`, the least recently shown
 * removed first, so no organisation can grow the cache without bound; the purge of a
 * document's files removes its renders too (`removePreviews`). The index lives in memory and
 * the directory is emptied when the server starts, so nothing on disk outlives what it knows.
 */
export class PreviewCache {
  private readonly dir: string;
  /** Sizes by version, least recently used first (a Map keeps insertion order). */
  private readonly sizes = new Map<string, number>();
  private total = 0;
  private readonly ready: Promise<void>;

  private constructor(
    dataDir: string,
    private readonly maxBytes: number,
  ) {
    this.dir = directoryOf(dataDir);
    this.ready = rm(this.dir, { recursive: true, force: true }).then(() =>
      mkdir(this.dir, { recursive: true, mode: 0o700 }).then(() => undefined),
    );
  }

  /** The cache of `dataDir` in this process (made, and its directory emptied, on first use). */
  static of(dataDir: string, maxBytes: number): PreviewCache {
    const dir = directoryOf(dataDir);
    let cache = caches.get(dir);
    if (!cache) {
      cache = new PreviewCache(dataDir, maxBytes);
      caches.set(dir, cache);
    }
    return cache;
  }

  private fileOf(version: string): string {
    if (!isStoredVersion(version)) throw new Error(`not a storage version: ${version}`);
    return path.join(this.dir, `${version}.html`);
  }

  /** The render of `version`, or null; a hit becomes the most recently used. */
  async get(version: string): Promise<string | null> {
    await this.ready;
    const size = this.sizes.get(version);
    if (size === undefined) return null;
    try {
      const html = await readFile(this.fileOf(version), 'utf8');
      this.sizes.delete(version);
      this.sizes.set(version, size);
      return html;
    } catch {
      this.forget(version);
      return null;
    }
  }

  /** Keeps the render of `version`, then removes the least used until within the cap. */
  async put(version: string, html: string): Promise<void> {
    await this.ready;
    const size = Buffer.byteLength(html, 'utf8');
    if (size > this.maxBytes) return;
    const file = this.fileOf(version);
    const temp = `${file}.${randomUUID()}.part`;
    try {
      await writeFile(temp, html, { mode: 0o600 });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.forget(version);
    this.sizes.set(version, size);
    this.total += size;
    for (const [oldest] of this.sizes) {
      if (this.total <= this.maxBytes) break;
      await this.remove(oldest);
    }
  }

  /** Removes the render of `version`, if any. */
  async remove(version: string): Promise<void> {
    await this.ready;
    this.forget(version);
    await rm(this.fileOf(version), { force: true });
  }

  /** The bytes of renders kept (for tests and measurements). */
  get bytes(): number {
    return this.total;
  }

  private forget(version: string): void {
    const size = this.sizes.get(version);
    if (size === undefined) return;
    this.sizes.delete(version);
    this.total -= size;
  }
}

/**
 * Removes the renders of `versions`, whose files are being deleted for ever (trash purge,
 * storage.remove-files): through this process's cache when it has one, else from disk.
 */
export async function removePreviews(dataDir: string, versions: string[]): Promise<void> {
  const cache = caches.get(directoryOf(dataDir));
  for (const version of versions.filter(isStoredVersion)) {
    if (cache) await cache.remove(version);
    else await rm(path.join(directoryOf(dataDir), `${version}.html`), { force: true });
  }
}
