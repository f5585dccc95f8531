import type { DataStore } from '@tus/utils';
import { Upload } from '@tus/utils';
import { FileStore as TusFileStore } from '@tus/file-store';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** How long a resumable upload may take from its creation; after that it is abandoned. */
export const RESUMABLE_UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

// Upload ids are made by the server (`randomUUID`), never taken from a client.
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `id` is an upload id this server could have made. */
export const isResumableUploadId = (id: string): boolean => UPLOAD_ID.test(id);

/** The mark of a finished upload's description (its object is committed; its bytes are gone). */
export const isFinished = (upload: Upload): boolean => upload.metadata?.finished === 'true';

/** `upload` marked finished. */
export const finishedUpload = (upload: Upload): Upload =>
  new Upload({ ...upload, metadata: { ...upload.metadata, finished: 'true' } });

/**
 * Where the bytes of resumable uploads wait until they are complete: the data directory's disk
 * (`DiskResumableStore`) or the S3 bucket of the stored files (s3-resumable-store.ts), chosen
 * with the file store (open-file-store.ts). Nothing there is an object: an object exists only
 * once the finished upload is copied into the file store and its row committed.
 */
export interface ResumableStore {
  /** The TUS data store the protocol (`@tus/server`) reads and writes through. */
  readonly datastore: DataStore;
  /** The upload `id` as it was created (finished ones marked), or null when there is none. */
  describe(id: string): Promise<Upload | null>;
  /** The upload `id` with the offset its bytes have reached, or null when it is gone. */
  current(id: string): Promise<Upload | null>;
  /** The bytes of an upload that has all of them. */
  readComplete(upload: Upload): Promise<Readable>;
  /**
   * Keeps the upload's description, marked finished, and drops its bytes: a client whose answer
   * to the last chunk was lost asks with HEAD and learns that the upload is complete, instead
   * of starting again into an object that now exists. The cleanup removes the description with
   * the abandoned uploads.
   */
  markFinished(upload: Upload): Promise<void>;
  /** Removes the upload `id`: its bytes and its description. One already gone is fine. */
  remove(id: string): Promise<void>;
  /**
   * Removes the uploads created more than `RESUMABLE_UPLOAD_LIFETIME_MS` before `now`, finished
   * or not (a finished one whose description is still here was never committed, or was kept
   * for a late HEAD). Returns how many.
   */
  removeAbandoned(now: Date): Promise<number>;
  /** The ids of the uploads held, finished ones included (for the tests and the check). */
  uploadIds(): Promise<string[]>;
}

/**
 * Resumable uploads under `{dataDir}/storage/resumable` (one file and one `.json` description
 * per upload), through `@tus/file-store`.
 */
export class DiskResumableStore implements ResumableStore {
  readonly datastore: TusFileStore;
  private readonly directory: string;

  constructor(dataDir: string) {
    this.directory = path.join(dataDir, 'storage', 'resumable');
    this.datastore = new TusFileStore({
      directory: this.directory,
      expirationPeriodInMilliseconds: RESUMABLE_UPLOAD_LIFETIME_MS,
    });
  }

  async describe(id: string): Promise<Upload | null> {
    return (await this.datastore.configstore.get(id)) ?? null;
  }

  current(id: string): Promise<Upload | null> {
    return this.datastore.getUpload(id).catch(() => null);
  }

  async readComplete(upload: Upload): Promise<Readable> {
    return createReadStream(path.join(this.directory, upload.id));
  }

  async markFinished(upload: Upload): Promise<void> {
    const info = await this.datastore.configstore.get(upload.id);
    if (info) await this.datastore.configstore.set(upload.id, finishedUpload(info));
    await rm(path.join(this.directory, upload.id), { force: true });
  }

  async remove(id: string): Promise<void> {
    await rm(path.join(this.directory, id), { force: true });
    await rm(path.join(this.directory, `${id}.json`), { force: true });
  }

  async removeAbandoned(now: Date): Promise<number> {
    let removed = 0;
    for (const id of await this.uploadIds()) {
      const info = await this.datastore.configstore.get(id);
      // Without a readable description (a creation cut short), the file's own age counts.
      const described = info?.creation_date ? Date.parse(info.creation_date) : NaN;
      const created = Number.isNaN(described) ? await this.lastModified(id) : described;
      if (now.getTime() - created <= RESUMABLE_UPLOAD_LIFETIME_MS) continue;
      await this.remove(id);
      removed++;
    }
    return removed;
  }

  async uploadIds(): Promise<string[]> {
    const entries = await readdir(this.directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const ids = new Set(entries.map((entry) => entry.replace(/\.json$/, '')));
    return [...ids].filter(isResumableUploadId).sort();
  }

  /** When the newest of an upload's two files was last written (0 when neither is there). */
  private async lastModified(id: string): Promise<number> {
    const times = await Promise.all(
      [id, `${id}.json`].map((name) =>
        stat(path.join(this.directory, name)).then(
          (stats) => stats.mtimeMs,
          () => 0,
        ),
      ),
    );
    return Math.max(...times);
  }
}
