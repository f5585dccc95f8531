import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { type MetadataValue, S3Store } from '@tus/s3-store';
import { type KvStore, TUS_RESUMABLE, Upload } from '@tus/utils';
import { Readable } from 'node:stream';
import type { S3Settings } from '../config/object-storage-settings.ts';
import type { ResumableStore } from './resumable-store.ts';
import {
  RESUMABLE_UPLOAD_LIFETIME_MS,
  finishedUpload,
  isResumableUploadId,
} from './resumable-store.ts';
import { isNotFound, s3Client, s3ClientConfig } from './s3-file-store.ts';

// Every process reads an upload's description from the bucket: another process may have
// continued, finished or cancelled the upload since this one last looked (@tus/s3-store keeps a
// per-process cache by default). It is one small GET per request.
const noCache: KvStore<MetadataValue> = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
};

/**
 * `@tus/s3-store` with its keys under a prefix of the bucket, while the TUS server and the
 * routes see the bare upload ids (the store itself names keys by the id alone).
 */
class PrefixedS3Store extends S3Store {
  private readonly keyOf: (id: string) => string;
  private readonly removeUpload: (id: string) => Promise<void>;

  constructor(
    options: ConstructorParameters<typeof S3Store>[0],
    keyOf: (id: string) => string,
    removeUpload: (id: string) => Promise<void>,
  ) {
    super(options);
    this.keyOf = keyOf;
    this.removeUpload = removeUpload;
  }

  override async create(upload: Upload): Promise<Upload> {
    const keyed = new Upload({ ...upload, id: this.keyOf(upload.id) });
    await super.create(keyed);
    // The TUS server goes on with the upload it passed (its creation date gives Upload-Expires).
    upload.creation_date = keyed.creation_date;
    upload.storage = keyed.storage;
    return upload;
  }

  override write(source: Readable, id: string, offset: number): Promise<number> {
    return super.write(source, this.keyOf(id), offset);
  }

  override async getUpload(id: string): Promise<Upload> {
    return new Upload({ ...(await super.getUpload(this.keyOf(id))), id });
  }

  override read(id: string): Promise<Readable> {
    return super.read(this.keyOf(id));
  }

  override declareUploadLength(id: string, length: number): Promise<void> {
    return super.declareUploadLength(this.keyOf(id), length);
  }

  // A cancelled upload's incomplete last part goes too (the store's own removal leaves it).
  override remove(id: string): Promise<void> {
    return this.removeUpload(id);
  }
}

/**
 * Resumable uploads in the bucket of the stored files, through `@tus/s3-store`: each upload is
 * an S3 multipart upload of `{prefix}resumable/{id}`, with its description in
 * `{prefix}resumable/{id}.info` and a last part smaller than S3's minimum in `….part`. Any
 * server process on the bucket can continue any upload. Nothing under `resumable/` is an
 * object: no row points there, the sweep and the consistency check look at `objects/` only,
 * and the finished upload is copied into `objects/` before its row is committed.
 */
export class S3ResumableStore implements ResumableStore {
  readonly datastore: PrefixedS3Store;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly root: string;

  constructor(settings: S3Settings) {
    this.client = s3Client(settings);
    this.bucket = settings.bucket;
    this.root = `${settings.prefix}resumable/`;
    this.datastore = new PrefixedS3Store(
      {
        s3ClientConfig: { ...s3ClientConfig(settings), bucket: settings.bucket },
        cache: noCache,
        // Gives Upload-Expires and refuses an expired upload as the disk's store does; the
        // cleanup job removes it (no lifecycle tags: not every S3-compatible service has them).
        expirationPeriodInMilliseconds: RESUMABLE_UPLOAD_LIFETIME_MS,
        useTags: false,
        // Each part waits in a temporary file while it is sent: a few at a time per request.
        maxConcurrentPartUploads: 4,
      },
      (id) => this.keyOf(id),
      (id) => this.remove(id),
    );
  }

  private keyOf(id: string): string {
    if (!isResumableUploadId(id)) throw new Error(`not a resumable upload id: ${id}`);
    return this.root + id;
  }

  /** The upload's description and the id of its S3 multipart upload; null when there is none. */
  private async readInfo(id: string): Promise<{ upload: Upload; multipartId: string } | null> {
    try {
      const { Body, Metadata } = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: `${this.keyOf(id)}.info` }),
      );
      const info = JSON.parse(await Body!.transformToString()) as Upload;
      return {
        upload: new Upload({
          id,
          size: info.size,
          offset: info.offset,
          metadata: info.metadata,
          creation_date: info.creation_date,
          storage: info.storage,
        }),
        multipartId: Metadata?.['upload-id'] ?? '',
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async describe(id: string): Promise<Upload | null> {
    return (await this.readInfo(id))?.upload ?? null;
  }

  async current(id: string): Promise<Upload | null> {
    try {
      return await this.datastore.getUpload(id);
    } catch (error) {
      if ((error as { status_code?: number }).status_code === 404) return null;
      throw error;
    }
  }

  async readComplete(upload: Upload): Promise<Readable> {
    // S3 completes no multipart upload without a part: an empty file has none.
    if (upload.size === 0) return Readable.from([]);
    return this.datastore.read(upload.id);
  }

  async markFinished(upload: Upload): Promise<void> {
    const info = await this.readInfo(upload.id);
    if (info) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: `${this.keyOf(upload.id)}.info`,
          Body: JSON.stringify(finishedUpload(info.upload)),
          Metadata: { 'upload-id': info.multipartId, 'tus-version': TUS_RESUMABLE },
        }),
      );
    }
    await this.removeBytes(upload.id, info?.multipartId);
  }

  async remove(id: string): Promise<void> {
    const info = await this.readInfo(id);
    await this.removeBytes(id, info?.multipartId);
    await this.deleteKey(`${this.keyOf(id)}.info`);
  }

  /** Aborts the multipart upload (if still open) and deletes the assembled file and last part. */
  private async removeBytes(id: string, multipartId: string | undefined): Promise<void> {
    const key = this.keyOf(id);
    if (multipartId) {
      await this.client
        .send(
          new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: multipartId }),
        )
        .catch((error: unknown) => {
          // Completed (its parts are the file deleted below) or aborted already.
          if (!isNotFound(error)) throw error;
        });
    }
    await this.deleteKey(key);
    await this.deleteKey(`${key}.part`);
  }

  private async deleteKey(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async removeAbandoned(now: Date): Promise<number> {
    let removed = 0;
    for (const [id, lastModified] of await this.listUploads()) {
      const info = await this.readInfo(id);
      // Without a readable description (a creation cut short), its keys' age counts.
      const described = info?.upload.creation_date ? Date.parse(info.upload.creation_date) : NaN;
      const created = Number.isNaN(described) ? lastModified : described;
      if (now.getTime() - created <= RESUMABLE_UPLOAD_LIFETIME_MS) continue;
      await this.remove(id);
      removed++;
    }
    return removed;
  }

  async uploadIds(): Promise<string[]> {
    return [...(await this.listUploads()).keys()].sort();
  }

  /** The uploads with a key under `resumable/`, with when the newest of their keys was written. */
  private async listUploads(): Promise<Map<string, number>> {
    const uploads = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.root,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        const id = item.Key?.slice(this.root.length).replace(/\.(info|part)$/, '') ?? '';
        if (!isResumableUploadId(id)) continue;
        const modified = item.LastModified?.getTime() ?? 0;
        uploads.set(id, Math.max(uploads.get(id) ?? 0, modified));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return uploads;
  }
}
