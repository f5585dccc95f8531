import type { Queryable, Row, Statement } from '../db/database.ts';
import { isStoredVersion } from './file-store.ts';
import { storageErrors } from './errors.ts';
import type { BucketInfo, ObjectMetadata } from './queries.ts';
import { bucketOf, findBucket, findBucketStatement, lockObjectNameStatement } from './queries.ts';
import type { StorageScope } from './scope.ts';
import { batchAsCaller, batchAsCallerAfter, ownerOf, runAsCaller } from './scope.ts';
import { keepsReservations, releaseUpload } from './upload-reservations.ts';
import type { StorageServices } from './services.ts';

// How an object's row and file change together (see FileStore for the order on disk): a trial
// write before any byte is read, the bytes, then the row, then the replaced file.

/** The row of an object being written. */
export interface NewObjectRow {
  id: string;
  bucketId: string;
  name: string;
  version: string;
  metadata: Partial<ObjectMetadata>;
  userMetadata: Record<string, unknown> | null;
}

/** Thrown inside a transaction to roll it back after a successful trial write. */
class TrialDone extends Error {}

/**
 * The statements that insert (or with `upsert`, insert or update) an object row as the caller:
 * the name's lock, then the write, which for an upsert also answers the row it replaces (read
 * in the same statement, so before the write). Only INSERT (and for upsert UPDATE and SELECT)
 * rights are used: no RETURNING, which would need SELECT too.
 */
function writeRowStatements(scope: StorageScope, row: NewObjectRow, upsert: boolean): Statement[] {
  const { owner, ownerId } = ownerOf(scope);
  const insert = `insert into storage.objects (id, bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)`;
  return [
    lockObjectNameStatement(row.bucketId, row.name),
    {
      sql: upsert
        ? `with existing as (
             select id, version from storage.objects where bucket_id = $2 and name = $3
           ), written as (
             ${insert}
             on conflict (bucket_id, name) do update set
               owner = excluded.owner, owner_id = excluded.owner_id, version = excluded.version,
               metadata = excluded.metadata, user_metadata = excluded.user_metadata,
               updated_at = now(), last_accessed_at = now()
           )
           select id, version from existing`
        : insert,
      params: [
        row.id,
        row.bucketId,
        row.name,
        owner,
        ownerId,
        row.version,
        JSON.stringify(row.metadata),
        row.userMetadata === null ? null : JSON.stringify(row.userMetadata),
      ],
    },
  ];
}

/** The id the object has after the write and the version it replaced (the write's rows). */
function rowWritten(row: NewObjectRow, rows: Row[]): { id: string; replaced: string | null } {
  const existing = rows[0] as { id: string; version: string | null } | undefined;
  return { id: existing?.id ?? row.id, replaced: existing?.version ?? null };
}

/** Writes an object row in an open transaction (`writeRowStatements`). */
async function writeRow(
  tx: Queryable,
  scope: StorageScope,
  row: NewObjectRow,
  upsert: boolean,
): Promise<{ id: string; replaced: string | null }> {
  let rows: Row[] = [];
  for (const { sql, params } of writeRowStatements(scope, row, upsert)) {
    rows = (await tx.query(sql, params)).rows;
  }
  return rowWritten(row, rows);
}

/**
 * Tries the row write as the caller and rolls it back, so that a refusal (RLS, duplicate) is
 * known before any byte of the body is read, as the storage server's `canUpload` does.
 */
export async function checkWritable(
  services: StorageServices,
  scope: StorageScope,
  row: NewObjectRow,
  upsert: boolean,
): Promise<void> {
  try {
    await batchAsCaller(
      services.db,
      scope,
      writeRowStatements(scope, row, upsert),
      () => {
        throw new TrialDone();
      },
      { readOnly: false, ends: 'rollback' },
    );
  } catch (error) {
    if (!(error instanceof TrialDone)) throw error;
  }
}

/**
 * `checkWritable` for a row of a bucket still to be looked up: the bucket (with the server's own
 * rights) and the trial write (as the caller, then undone) in one batch, a single round trip
 * instead of three. Answers what `rules` make of the bucket. What the storage server answers
 * first still comes first: `NoSuchBucket`, then the refusals of `rules` (the bucket's limits),
 * then the trial's; so when the trial is refused the bucket is looked up again by itself.
 */
export async function checkWritableInBucket<T>(
  services: StorageServices,
  scope: StorageScope,
  row: NewObjectRow,
  upsert: boolean,
  rules: (bucket: BucketInfo) => T,
): Promise<T> {
  let bucket: BucketInfo | null;
  try {
    bucket = await batchAsCallerAfter(
      services.db,
      scope,
      findBucketStatement(row.bucketId),
      writeRowStatements(scope, row, upsert),
      bucketOf,
      { readOnly: false, ends: 'rollback' },
    );
  } catch (refusal) {
    const found = await findBucket(services.db, row.bucketId);
    if (!found) throw storageErrors.noSuchBucket();
    rules(found);
    throw refusal;
  }
  if (!bucket) throw storageErrors.noSuchBucket();
  return rules(bucket);
}

/** Deletes files whose rows are gone; a failure only leaves an orphan for the next sweep. */
export function discard(
  services: Pick<StorageServices, 'store'>,
  version: string | null | undefined,
): Promise<void> {
  if (!isStoredVersion(version)) return Promise.resolve();
  return services.store.remove(version).catch((error: unknown) => {
    console.error(`storage: could not delete file of version ${version}:`, error);
  });
}

/**
 * Commits a row for bytes already on disk: on failure the new file is deleted, after commit the
 * replaced version's file is. The row of a resumable upload takes over its `reservation` in the
 * same transaction, so that the quota counts the bytes once.
 */
export async function commitRow(
  services: StorageServices,
  scope: StorageScope,
  row: NewObjectRow,
  upsert: boolean,
  reservation?: string,
): Promise<string> {
  let result: { id: string; replaced: string | null };
  try {
    const release =
      reservation && (await keepsReservations(services.db))
        ? (tx: Queryable) => releaseUpload(tx, reservation)
        : undefined;
    result = release
      ? await runAsCaller(services.db, scope, (tx) => writeRow(tx, scope, row, upsert), release)
      : await batchAsCaller(
          services.db,
          scope,
          writeRowStatements(scope, row, upsert),
          (rows) => rowWritten(row, rows),
          // The bytes are on disk already: nothing refuses the row after its statements.
          { readOnly: false, ends: 'commit' },
        );
  } catch (error) {
    await discard(services, row.version);
    throw error;
  }
  if (result.replaced !== row.version) await discard(services, result.replaced);
  return result.id;
}

/**
 * Commits the row of bytes already on disk with the server's own rights, and `then` in the same
 * transaction (a document made of the file, by a definer function that decides who may): both,
 * or neither and the new file deleted. For Steward's own writers that act for nobody signed in
 * (uploads through document request links, server/requests/); the quota's triggers on
 * storage.objects hold for them as for everyone.
 */
export async function commitRowWith<T>(
  services: StorageServices,
  row: NewObjectRow,
  then: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const scope: StorageScope = {
    caller: { role: 'service_role', claims: { role: 'service_role' }, token: null },
    operation: 'steward.object.upload',
    method: 'POST',
    path: '',
    headers: new Headers(),
  };
  try {
    return await services.db.transaction(async (tx) => {
      await writeRow(tx, scope, row, false);
      return then(tx);
    });
  } catch (error) {
    await discard(services, row.version);
    throw error;
  }
}
