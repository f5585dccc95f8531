import { randomUUID } from 'node:crypto';
import { storageErrors } from './errors.ts';
import type { NewObjectRow } from './object-rows.ts';
import { checkWritableInBucket, commitRow } from './object-rows.ts';
import type { BucketInfo, ObjectMetadata } from './queries.ts';
import { findBucket } from './queries.ts';
import type { StorageScope } from './scope.ts';
import type { StorageServices } from './services.ts';
import { mimeTypeAllowed, readUploadSource } from './upload-source.ts';

export interface UploadOptions {
  bucketId: string;
  name: string;
  upsert: boolean;
  request: Request;
  /** Runs once the caller's rights are checked, before any byte of the body is read. */
  beforeBody?: () => Promise<void>;
}

/**
 * An upload (`POST`) or update (`PUT`): checks the bucket's limits and the caller's rights, then
 * streams the body to disk and commits the row (see `FileStore` for the order of writes).
 */
export async function uploadObject(
  services: StorageServices,
  scope: StorageScope,
  options: UploadOptions,
): Promise<{ Key: string; Id: string }> {
  const { bucketId, name, upsert } = options;
  const source = await readUploadSource(options.request).catch(async (error: unknown) => {
    // A missing bucket is answered first, as the storage server looks it up before the body.
    if (!(await findBucket(services.db, bucketId))) throw storageErrors.noSuchBucket();
    throw error;
  });
  const row: NewObjectRow = {
    id: randomUUID(),
    bucketId,
    name,
    version: randomUUID(),
    // A multipart body's file size is known only once read: its trial write counts 0 bytes,
    // and the row written after the bytes is what the quota trigger decides on.
    metadata: { mimetype: source.mimetype, contentLength: source.declaredSize ?? 0 },
    userMetadata: source.userMetadata,
  };
  // The bucket, its limits and the caller's rights, in one round trip to the database.
  const limit = await checkWritableInBucket(services, scope, row, upsert, (bucket) =>
    checkBucketRules(services, bucket, source.mimetype, source.declaredSize),
  );
  await options.beforeBody?.();

  const stored = await services.store.write(source.body, limit);
  const metadata: ObjectMetadata = {
    eTag: stored.eTag,
    size: stored.size,
    sha256: stored.sha256,
    mimetype: source.mimetype,
    cacheControl: source.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: stored.size,
    httpStatusCode: 200,
  };
  const id = await commitRow(
    services,
    scope,
    { ...row, version: stored.version, metadata },
    upsert,
  );
  return { Key: `${bucketId}/${name}`, Id: id };
}

/**
 * The bucket's rules for a new object: the bucket admits `mimetype`, and a size known in advance
 * is within the bucket's and the server's limit. Returns that limit in bytes.
 */
export function checkBucketRules(
  services: StorageServices,
  bucket: BucketInfo,
  mimetype: string,
  declaredSize: number | undefined,
): number {
  if (bucket.allowedMimeTypes?.length && !mimeTypeAllowed(mimetype, bucket.allowedMimeTypes)) {
    throw storageErrors.invalidMimeType(mimetype);
  }
  const limit = Math.min(services.fileSizeLimit, bucket.fileSizeLimit ?? Infinity);
  if (declaredSize !== undefined && declaredSize > limit) throw storageErrors.entityTooLarge();
  return limit;
}

/**
 * Whether the caller could upload `name` now (for `createSignedUploadUrl`, which checks rights
 * when the URL is made; the upload itself then runs with the rights the URL grants).
 */
export async function checkUploadAllowed(
  services: StorageServices,
  scope: StorageScope,
  options: { bucketId: string; name: string; upsert: boolean },
): Promise<void> {
  const row: NewObjectRow = {
    id: randomUUID(),
    bucketId: options.bucketId,
    name: options.name,
    version: randomUUID(),
    metadata: {},
    userMetadata: null,
  };
  await checkWritableInBucket(services, scope, row, options.upsert, () => undefined);
}
