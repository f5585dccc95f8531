import type { Queryable } from '../db/database.ts';
import { isStoredVersion } from './file-store.ts';
import type { ObjectMetadata } from './queries.ts';
import { lockObjectName } from './queries.ts';
import type { StorageScope } from './scope.ts';
import { ownerOf, runAsCaller } from './scope.ts';
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
 * Inserts (or with `upsert`, inserts or updates) an object row as the caller. Only INSERT (and
 * for upsert UPDATE and SELECT) rights are used: no RETURNING, which would need SELECT too.
 * Returns the id the object has afterwards and the version it replaced.
 */
async function writeRow(
  tx: Queryable,
  scope: StorageScope,
  row: NewObjectRow,
  upsert: boolean,
): Promise<{ id: string; replaced: string | null }> {
  await lockObjectName(tx, row.bucketId, row.name);
  const existing = upsert
    ? (
        await tx.query<{ id: string; version: string | null }>(
          'select id, version from storage.objects where bucket_id = $1 and name = $2',
          [row.bucketId, row.name],
        )
      ).rows[0]
    : undefined;
  const { owner, ownerId } = ownerOf(scope);
  await tx.query(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)
     ${
       upsert
         ? `on conflict (bucket_id, name) do update set
              owner = excluded.owner, owner_id = excluded.owner_id, version = excluded.version,
              metadata = excluded.metadata, user_metadata = excluded.user_metadata,
              updated_at = now(), last_accessed_at = now()`
         : ''
     }`,
    [
      row.id,
      row.bucketId,
      row.name,
      owner,
      ownerId,
      row.version,
      JSON.stringify(row.metadata),
      row.userMetadata === null ? null : JSON.stringify(row.userMetadata),
    ],
  );
  return { id: existing?.id ?? row.id, replaced: existing?.version ?? null };
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
    await runAsCaller(services.db, scope, async (tx) => {
      await writeRow(tx, scope, row, upsert);
      throw new TrialDone();
    });
  } catch (error) {
    if (!(error instanceof TrialDone)) throw error;
  }
}

/** Deletes files whose rows are gone; a failure only leaves an orphan for the next sweep. */
export function discard(
  services: StorageServices,
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
    result = await runAsCaller(
      services.db,
      scope,
      (tx) => writeRow(tx, scope, row, upsert),
      release,
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
