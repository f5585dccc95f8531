import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Settings } from '../config/object-storage-settings.ts';
import type { Queryable } from '../db/database.ts';
import { storageErrors } from './errors.ts';
import type { FileStore, OpenedFile, StoredEntry, StoredFile } from './file-store.ts';
import { isStoredVersion, missingFileError } from './file-store.ts';
import { s3Client, uploadCounted } from './s3-file-store.ts';

/** Where an object is for Storage's S3 protocol: the bucket id and the object's name. */
interface ObjectAddress {
  bucket: string;
  name: string;
}

const isNotFound = (error: unknown): boolean => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
};

const notHere = (what: string) =>
  new Error(
    `${what}: a hosted project's Storage writes its objects under their names, not Steward's versions`,
  );

/**
 * The objects of a hosted project's Storage by bucket and name, through its S3 protocol, which
 * writes and deletes each object's row with its bytes. It needs no database, so that a
 * background process can write with it (an import's files, transfer/import-zip-task.ts).
 */
export class StorageObjects {
  constructor(private readonly client: S3Client) {}

  /** Uploads the local `file` as the object `name` of `bucket`; Storage records its row. */
  async put(bucket: string, name: string, file: string, contentType: string): Promise<void> {
    await new Upload({
      client: this.client,
      params: { Bucket: bucket, Key: name, Body: createReadStream(file), ContentType: contentType },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    }).done();
  }

  /**
   * Streams `chunks` into the object `name` of `bucket`, visible only whole; throws
   * `EntityTooLarge` past `maxBytes`, leaving nothing. Returns its size and hashes.
   */
  write(
    bucket: string,
    name: string,
    chunks: AsyncIterable<Uint8Array>,
    maxBytes: number,
    contentType: string,
  ): Promise<Omit<StoredFile, 'version'>> {
    return uploadCounted(this.client, { bucket, key: name, chunks, maxBytes, contentType });
  }

  /** Deletes the object `name` of `bucket` through Storage, its row and bytes; gone is fine. */
  async remove(bucket: string, name: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name }));
  }

  /** Deletes the object `name` of `bucket` if it is there; returns whether it was. */
  async discard(bucket: string, name: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: name }));
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
    await this.remove(bucket, name);
    return true;
  }
}

/**
 * The stored files of a hosted Supabase project, through its Storage's S3 protocol endpoint
 * (`https://<ref>.supabase.co/storage/v1/s3` with the project's S3 access keys). Hosted Storage
 * owns the rows of `storage.objects` and keeps the bytes in its own backend under its own keys;
 * its S3 protocol addresses an object as bucket = the Storage bucket id, key = the object's
 * name, and writes and deletes the row with the bytes. Steward's jobs name a file by its row's
 * `version`, so this store looks the row up to find the name (one statement per file: a
 * migration may not index `storage.objects` on hosted).
 *
 * It reads (text extraction, exports, attachments) and removes; it writes only objects by name
 * (`objects`). Writing a new version under Steward's own layout (`write`, `keep`, `copy`)
 * is refused: on hosted Storage a file without its row would be unreachable.
 */
export class HostedStorage implements FileStore {
  readonly location: string;
  /** The project's objects by bucket and name. */
  readonly objects: StorageObjects;
  private readonly client: S3Client;
  private readonly scratchDir: string;

  constructor(
    dataDir: string,
    settings: S3Settings,
    private readonly db: Queryable,
    client: S3Client = s3Client(settings),
  ) {
    this.client = client;
    this.objects = new StorageObjects(client);
    this.location = `Supabase Storage at ${settings.endpoint ?? 'AWS'}`;
    this.scratchDir = path.join(dataDir, 'storage', 'scratch');
  }

  /** The object whose current row holds `version`, or null. */
  private async locate(version: string): Promise<ObjectAddress | null> {
    if (!isStoredVersion(version)) return null;
    const { rows } = await this.db.query<{ bucket_id: string; name: string }>(
      'select bucket_id, name from storage.objects where version = $1 limit 1',
      [version],
    );
    const row = rows[0];
    return row ? { bucket: row.bucket_id, name: row.name } : null;
  }

  write(): Promise<StoredFile> {
    return Promise.reject(notHere('write'));
  }

  keep(): Promise<void> {
    return Promise.reject(notHere('keep'));
  }

  copy(): Promise<string> {
    return Promise.reject(notHere('copy'));
  }

  /** Uploads the local `file` as the object `name` of `bucket`; Storage records its row. */
  put(bucket: string, name: string, file: string, contentType: string): Promise<void> {
    return this.objects.put(bucket, name, file, contentType);
  }

  /** Deletes the object `name` of `bucket` through Storage, its row and bytes; gone is fine. */
  removeObject(bucket: string, name: string): Promise<void> {
    return this.objects.remove(bucket, name);
  }

  async open(version: string): Promise<OpenedFile | null> {
    const address = await this.locate(version);
    if (!address) return null;
    const size = await this.sizeAt(address);
    if (size === null) return null;
    return {
      size,
      stream: async (range) => {
        try {
          const { Body } = await this.client.send(
            new GetObjectCommand({
              Bucket: address.bucket,
              Key: address.name,
              ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
            }),
          );
          return Body as Readable;
        } catch (error) {
          if (isNotFound(error)) throw storageErrors.noSuchKey();
          throw error;
        }
      },
      close: async () => {},
    };
  }

  async sizeOf(version: string): Promise<number | null> {
    const address = await this.locate(version);
    return address ? this.sizeAt(address) : null;
  }

  private async sizeAt(address: ObjectAddress): Promise<number | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: address.bucket, Key: address.name }),
      );
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async withLocalFiles<T>(versions: string[], use: (paths: string[]) => Promise<T>): Promise<T> {
    const paths: string[] = [];
    try {
      for (const version of versions) {
        const file = this.scratchFile(version);
        paths.push(file);
        if (!(await this.saveCopy(version, file))) throw missingFileError(version);
      }
      return await use(paths);
    } finally {
      for (const file of paths) await rm(file, { force: true });
    }
  }

  scratchFile(name: string): string {
    return path.join(this.scratchDir, `${name}-${randomUUID()}`);
  }

  /**
   * Deletes the object that holds `version` through Storage. A version whose row is gone
   * already cannot be reached any more: Storage removed its bytes with the row, or they stay
   * in Storage's backend (rows deleted in SQL, docs/hosted-parity.md).
   */
  async remove(version: string): Promise<void> {
    const address = await this.locate(version);
    if (address) await this.removeObject(address.bucket, address.name);
  }

  async discard(version: string): Promise<boolean> {
    const address = await this.locate(version);
    if (!address) return false;
    await this.removeObject(address.bucket, address.name);
    return true;
  }

  /** Backups of a hosted project are Supabase's: nothing of this process holds removals. */
  holdRemovals(): () => Promise<void> {
    return async () => {};
  }

  async saveCopy(version: string, destination: string): Promise<boolean> {
    const address = await this.locate(version);
    if (!address) return false;
    let body: Readable;
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: address.bucket, Key: address.name }),
      );
      body = got.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
    await mkdir(path.dirname(destination), { recursive: true });
    try {
      await pipeline(body, createWriteStream(destination, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await rm(destination, { force: true });
      throw error;
    }
    return true;
  }

  /** Storage keeps its own objects: only the local copies of stopped work are Steward's. */
  async sweep(): Promise<number> {
    await rm(this.scratchDir, { recursive: true, force: true });
    return 0;
  }

  async inventory(): Promise<StoredEntry[]> {
    return [];
  }

  removeEntry(): Promise<void> {
    return Promise.reject(notHere('removeEntry'));
  }
}
