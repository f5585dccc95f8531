import { randomUUID } from 'node:crypto';
import { storageErrors } from './errors.ts';
import { isStoredVersion } from './file-store.ts';
import type { NewObjectRow } from './object-rows.ts';
import { checkWritable, commitRow } from './object-rows.ts';
import type { ObjectMetadata, ObjectRow } from './queries.ts';
import { findBucket, findObject, lockObjectName } from './queries.ts';
import type { StorageScope } from './scope.ts';
import { ownerOf, runAsCaller } from './scope.ts';
import type { StorageServices } from './services.ts';
import { mimeTypeAllowed } from './upload-source.ts';

/** Refuses an object for a bucket whose limits it does not meet (copy and move). */
async function checkBucketAdmits(
  services: StorageServices,
  bucketId: string,
  metadata: Partial<ObjectMetadata> | null,
): Promise<void> {
  const bucket = await findBucket(services.db, bucketId);
  if (!bucket) throw storageErrors.noSuchBucket();
  const size = typeof metadata?.size === 'number' ? metadata.size : 0;
  if (size > Math.min(services.fileSizeLimit, bucket.fileSizeLimit ?? Infinity)) {
    throw storageErrors.entityTooLarge();
  }
  const mimetype = typeof metadata?.mimetype === 'string' ? metadata.mimetype : '';
  if (bucket.allowedMimeTypes?.length && !mimeTypeAllowed(mimetype, bucket.allowedMimeTypes)) {
    throw storageErrors.invalidMimeType(mimetype);
  }
}

export interface CopyOptions {
  bucketId: string;
  sourceKey: string;
  destinationBucket: string;
  destinationKey: string;
  upsert: boolean;
}

/**
 * Copies an object the caller can read to a name the caller can write (INSERT, plus UPDATE and
 * SELECT with upsert): a new file with the same bytes, a new row.
 */
export async function copyObject(
  services: StorageServices,
  scope: StorageScope,
  options: CopyOptions,
): Promise<ObjectRow & { Id: string; Key: string }> {
  const source = await runAsCaller(services.db, scope, (tx) =>
    findObject(tx, options.bucketId, options.sourceKey),
  );
  if (!source || !isStoredVersion(source.version)) throw storageErrors.noSuchKey();
  await checkBucketAdmits(services, options.destinationBucket, source.metadata);

  const row: NewObjectRow = {
    id: randomUUID(),
    bucketId: options.destinationBucket,
    name: options.destinationKey,
    version: randomUUID(),
    metadata: source.metadata ?? {},
    userMetadata: source.user_metadata,
  };
  await checkWritable(services, scope, row, options.upsert);
  let version: string;
  try {
    version = await services.store.copy(source.version);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw storageErrors.noSuchKey();
    throw error;
  }
  const metadata = { ...source.metadata, lastModified: new Date().toISOString() };
  const id = await commitRow(services, scope, { ...row, version, metadata }, options.upsert);
  const copied = await findObject(services.db, options.destinationBucket, options.destinationKey);
  if (!copied) throw storageErrors.noSuchKey();
  return {
    Id: id,
    Key: `${options.destinationBucket}/${options.destinationKey}`,
    ...copied,
  };
}

export interface MoveOptions {
  bucketId: string;
  sourceKey: string;
  destinationBucket: string;
  destinationKey: string;
}

/**
 * Renames an object (to another bucket too). Files are named by version, not by object name, so
 * only the row changes; RLS must allow the caller to UPDATE the row from and to its names.
 */
export async function moveObject(
  services: StorageServices,
  scope: StorageScope,
  options: MoveOptions,
): Promise<{ message: string; Id: string; Key: string }> {
  const source = await runAsCaller(services.db, scope, (tx) =>
    findObject(tx, options.bucketId, options.sourceKey),
  );
  if (!source) throw storageErrors.noSuchKey();
  if (options.destinationBucket !== options.bucketId) {
    await checkBucketAdmits(services, options.destinationBucket, source.metadata);
  }
  const { owner, ownerId } = ownerOf(scope);
  const moved = await runAsCaller(services.db, scope, async (tx) => {
    // Both names, in a fixed order: a concurrent upsert of either must not act on a stale row.
    const names = [
      [options.bucketId, options.sourceKey] as const,
      [options.destinationBucket, options.destinationKey] as const,
    ].sort((x, y) => (x.join('/') < y.join('/') ? -1 : 1));
    for (const [bucketId, name] of names) await lockObjectName(tx, bucketId, name);
    const { rows } = await tx.query<{ id: string }>(
      `update storage.objects
          set bucket_id = $3, name = $4, owner = $5, owner_id = $6,
              updated_at = now(), last_accessed_at = now()
        where bucket_id = $1 and name = $2
        returning id`,
      [
        options.bucketId,
        options.sourceKey,
        options.destinationBucket,
        options.destinationKey,
        owner,
        ownerId,
      ],
    );
    if (!rows[0]) throw storageErrors.noSuchKey();
    return rows[0];
  });
  return { message: 'Successfully moved', Id: moved.id, Key: options.destinationKey };
}
