import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Settings } from '../config/object-storage-settings.ts';
import { storageErrors } from './errors.ts';
import type { FileStore, OpenedFile, StoredEntry, StoredFile } from './file-store.ts';
import { heldRemovals, isStoredVersion, missingFileError, versionPath } from './file-store.ts';

/** Parts of a multipart upload; S3 wants at least 5 MiB for every part but the last. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Versions younger than this are left alone by the sweep: another server process on the same
 * bucket may have written one and not yet committed its row. A write is visible only once
 * complete, and its row follows within moments, so an hour leaves a wide margin.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/** The client for a bucket, with what third-party S3 services need. */
export function s3Client(settings: S3Settings): S3Client {
  return new S3Client(s3ClientConfig(settings));
}

/** How a client reaches the bucket (for `s3Client`, and for @tus/s3-store's own client). */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Checksums only where S3 requires them: the SDK's default (a CRC32 trailer on every
    // upload, with chunked encoding) is refused by several S3-compatible services.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

export const isNotFound = (error: unknown): boolean => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
};

/**
 * Streams `chunks` to the object `key` of `bucket`, counting and hashing them: throws
 * `EntityTooLarge` as soon as more than `maxBytes` arrive. One PUT for a small file, a multipart
 * upload (aborted on failure) for a large one: the object is visible only whole, or not at all.
 */
export async function uploadCounted(
  client: S3Client,
  target: {
    bucket: string;
    key: string;
    chunks: AsyncIterable<Uint8Array>;
    maxBytes: number;
    contentType: string;
  },
): Promise<Omit<StoredFile, 'version'>> {
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  let tooLarge = false;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of target.chunks) {
      size += chunk.byteLength;
      if (size > target.maxBytes) {
        tooLarge = true;
        throw storageErrors.entityTooLarge();
      }
      md5.update(chunk);
      sha256.update(chunk);
      yield chunk;
    }
  }
  const upload = new Upload({
    client,
    params: {
      Bucket: target.bucket,
      Key: target.key,
      Body: Readable.from(counted()),
      ContentType: target.contentType,
    },
    partSize: PART_SIZE,
    queueSize: 2,
    leavePartsOnError: false,
  });
  try {
    await upload.done();
  } catch (error) {
    if (tooLarge) throw storageErrors.entityTooLarge();
    throw error;
  }
  return { size, eTag: `"${md5.digest('hex')}"`, sha256: sha256.digest('hex') };
}

/**
 * The bytes of stored objects in an S3-compatible bucket, under
 * `{prefix}objects/{first two hex digits of the version}/{version}`, the layout of the disk
 * store. S3 makes a PUT visible only whole, and a multipart upload only once completed, which
 * happens after its last part; a failed write aborts its multipart upload. As on disk, a version
 * is written before its row is committed and removed after the row is gone. Work that reads
 * files by path gets local copies under `{dataDir}/storage/scratch`, removed when it ends.
 */
export class S3FileStore implements FileStore {
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly scratchDir: string;

  constructor(dataDir: string, settings: S3Settings, client: S3Client = s3Client(settings)) {
    this.client = client;
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.location = `s3://${settings.bucket}/${settings.prefix}objects`;
    this.scratchDir = path.join(dataDir, 'storage', 'scratch');
  }

  private keyOf(version: string): string {
    return this.prefix + versionPath(version);
  }

  async write(
    chunks: AsyncIterable<Uint8Array>,
    maxBytes: number,
    version: string = randomUUID(),
  ): Promise<StoredFile> {
    const written = await uploadCounted(this.client, {
      bucket: this.bucket,
      key: this.keyOf(version),
      chunks,
      maxBytes,
      contentType: 'application/octet-stream',
    });
    return { version, ...written };
  }

  scratchFile(name: string): string {
    return path.join(this.scratchDir, `${name}-${randomUUID()}`);
  }

  async keep(file: string, version: string): Promise<void> {
    await this.write(createReadStream(file), Number.POSITIVE_INFINITY, version);
    await rm(file, { force: true });
  }

  async copy(version: string): Promise<string> {
    const copy = randomUUID();
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(copy),
        CopySource: `${this.bucket}/${encodeURI(this.keyOf(version))}`,
      }),
    );
    return copy;
  }

  async open(version: string): Promise<OpenedFile | null> {
    const size = await this.sizeOf(version);
    if (size === null) return null;
    const key = this.keyOf(version);
    return {
      size,
      stream: async (range) => {
        try {
          const { Body } = await this.client.send(
            new GetObjectCommand({
              Bucket: this.bucket,
              Key: key,
              ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
            }),
          );
          return Body as Readable;
        } catch (error) {
          // Removed between the look and the read (replaced by a newer version).
          if (isNotFound(error)) throw storageErrors.noSuchKey();
          throw error;
        }
      },
      close: async () => {},
    };
  }

  async sizeOf(version: string): Promise<number | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(version) }),
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

  async remove(version: string): Promise<void> {
    if (heldRemovals.defer(this.location, version)) return;
    await this.deleteKey(this.keyOf(version));
  }

  private async deleteKey(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A write that was stopped left nothing (its multipart upload is aborted or expires). */
  async discard(version: string): Promise<boolean> {
    const found = (await this.sizeOf(version)) !== null;
    await this.remove(version);
    return found;
  }

  holdRemovals(): () => Promise<void> {
    return heldRemovals.hold(this.location, (version) => this.deleteKey(this.keyOf(version)));
  }

  async saveCopy(version: string, destination: string): Promise<boolean> {
    let body: Readable;
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(version) }),
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

  /**
   * Deletes the versions no row points at that are older than `SWEEP_GRACE_MS` (younger ones
   * may belong to a write of another process whose row is still coming), anything else under
   * `objects/`, and local copies left by work that was stopped.
   */
  async sweep(referenced: (versions: string[]) => Promise<Set<string>>): Promise<number> {
    await rm(this.scratchDir, { recursive: true, force: true });
    let removed = 0;
    const cutoff = Date.now() - SWEEP_GRACE_MS;
    let batch: StoredEntry[] = [];
    const flush = async () => {
      const keep = await referenced(batch.map((entry) => entry.version!));
      for (const entry of batch) {
        if (keep.has(entry.version!)) continue;
        await this.removeEntry(entry.path);
        removed++;
      }
      batch = [];
    };
    for await (const entry of this.entries()) {
      if (entry.modifiedAt.getTime() > cutoff) continue;
      if (entry.version === null) {
        await this.removeEntry(entry.path);
        removed++;
        continue;
      }
      batch.push(entry);
      if (batch.length === 1000) await flush();
    }
    if (batch.length > 0) await flush();
    return removed;
  }

  async inventory(): Promise<StoredEntry[]> {
    const entries: StoredEntry[] = [];
    for await (const entry of this.entries()) entries.push(entry);
    return entries.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Every key under `{prefix}objects/`, page by page. */
  private async *entries(): AsyncGenerator<StoredEntry> {
    const root = `${this.prefix}objects/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: root, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (!item.Key) continue;
        const relative = item.Key.slice(this.prefix.length);
        const [, shard, name, ...rest] = relative.split('/');
        const version =
          rest.length === 0 && isStoredVersion(name) && name.startsWith(shard ?? '-') ? name : null;
        yield {
          path: relative,
          version,
          bytes: item.Size ?? 0,
          modifiedAt: item.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async removeEntry(entryPath: string): Promise<void> {
    if (!entryPath.startsWith('objects/') || entryPath.split('/').includes('..')) {
      throw new Error(`not an entry of the store: ${entryPath}`);
    }
    await this.deleteKey(this.prefix + entryPath);
  }
}
