import { randomUUID } from 'node:crypto';
import { storageErrors } from './errors.ts';
import type { NewObjectRow } from './object-rows.ts';
import { checkWritableInBucket, commitRow } from './object-rows.ts';
import type { BucketInfo, ObjectMetadata } from './queries.ts';
import { bucketOf, findBucket, findBucketStatement } from './queries.ts';
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
  /**
   * Whether the whole request, body included, has reached the server already (Node's
   * `IncomingMessage.complete`): a small body that has is read before the database is asked.
   */
  bodyReceived?: () => boolean;
}

/**
 * A raw body of at most this many bytes that has wholly arrived with its request is read before
 * the database is asked, and its row written once, after the bytes: no trial write first (see
 * `uploadObject`). Reading it waits for nothing, so a refusal is answered no later than the
 * trial's would be (a body still on its way, as any larger one, takes the trial first: its
 * refusal must not wait for the rest). A refused upload of it writes its file and deletes it
 * again, as a row refused after its bytes always did, which at this size costs less than the
 * trial every accepted upload paid (about a sixth of the database's work for an upload).
 */
export const READ_FIRST_MAX_BYTES = 64 * 1024;

/**
 * An upload (`POST`) or update (`PUT`): checks the bucket's limits and the caller's rights, then
 * streams the body to disk and commits the row (see `FileStore` for the order of writes). The
 * caller's rights are known before any byte of the body is read, from a trial write of the row
 * that is then undone; except for a small body already received (`READ_FIRST_MAX_BYTES`), read
 * first, whose row is written only once: its refusals are the trial's (the same statements),
 * answered after the bucket's as before.
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
  const rules = (bucket: BucketInfo) =>
    checkBucketRules(services, bucket, source.mimetype, source.declaredSize);
  // A signed upload URL's token is claimed between the rights and the bytes (`beforeBody`).
  const readFirst =
    !options.beforeBody &&
    source.declaredSize !== undefined &&
    source.declaredSize <= READ_FIRST_MAX_BYTES &&
    options.bodyReceived !== undefined &&
    (await receivedSoon(options.bodyReceived));
  let body: AsyncIterable<Uint8Array> = source.body;
  let limit: number;
  if (readFirst) {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of source.body) chunks.push(chunk);
    } catch (broken) {
      // Not what was declared (`Aborted`): what the trial write answers still comes first.
      await checkWritableInBucket(services, scope, row, upsert, rules);
      throw broken;
    }
    body = (async function* () {
      yield* chunks;
    })();
    // A read-only batch, which the PGlite read cache's write clock does not count as a write
    // (`query` would: it may write), so that the remembered reads stay current through it.
    const bucket = await services.db.runBatch([findBucketStatement(bucketId)], bucketOf, {
      readOnly: true,
    });
    if (!bucket) throw storageErrors.noSuchBucket();
    limit = rules(bucket);
  } else {
    // The bucket, its limits and the caller's rights, in one round trip to the database.
    limit = await checkWritableInBucket(services, scope, row, upsert, rules);
    await options.beforeBody?.();
  }

  const stored = await services.store.write(body, limit);
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
 * Whether `received` holds now or after one turn of the event loop. A client sends a small body
 * right after its headers, but the handler starts on the headers alone: in the load test's
 * uploads the body was never there yet, and always one turn later (its bytes were waiting in the
 * socket, read in that turn's poll). One turn only, so that a refusal never waits for a body
 * still on its way.
 */
async function receivedSoon(received: () => boolean): Promise<boolean> {
  if (received()) return true;
  await new Promise((resolve) => setImmediate(resolve));
  return received();
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
