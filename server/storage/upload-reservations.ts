import type { Database, Queryable, ScopedDatabase } from '../db/database.ts';
import { storageErrorFromPostgres } from './errors.ts';

// A resumable upload's bytes wait on disk, outside every object, for up to a day; so that they
// count towards the organisation's quota meanwhile, each upload reserves its declared length
// when it is created (migration 20261128000303) until its object is committed, in the same
// transaction, or it is cancelled, refused or abandoned.

const present = new WeakMap<Database, Promise<boolean>>();

/**
 * Whether `db` keeps reservations: Steward's schema does; the storage service's own tests run
 * without it, as would a database the service were used with alone.
 */
export function keepsReservations(db: ScopedDatabase): Promise<boolean> {
  let known = present.get(db.database);
  if (!known) {
    known = db
      .query<{ present: boolean }>(
        "select to_regclass('private.upload_reservations') is not null as present",
      )
      .then(({ rows }) => rows[0]?.present === true);
    present.set(db.database, known);
  }
  return known;
}

/**
 * Reserves `bytes` for the upload `id` of (bucketId, name) within its organisation's quota;
 * throws the storage server's refusal when they do not fit.
 */
export async function reserveUpload(
  db: ScopedDatabase,
  upload: { id: string; bucketId: string; name: string; bytes: number },
): Promise<void> {
  if (!(await keepsReservations(db))) return;
  try {
    await db.query('select private.reserve_upload($1, $2, $3, $4)', [
      upload.id,
      upload.bucketId,
      upload.name,
      String(upload.bytes),
    ]);
  } catch (error) {
    throw storageErrorFromPostgres(error) ?? error;
  }
}

/**
 * Gives back the reservation of upload `id`: its object is being committed in `tx`'s
 * transaction, or the upload is gone. (Only where `keepsReservations`.)
 */
export async function releaseUpload(tx: Queryable, id: string): Promise<void> {
  await tx.query('delete from private.upload_reservations where id = $1', [id]);
}

/** Gives back the reservation of upload `id`, which is gone (cancelled or refused). */
export async function releaseGoneUpload(db: ScopedDatabase, id: string): Promise<void> {
  if (await keepsReservations(db)) await releaseUpload(db, id);
}

/** Gives back the reservations of uploads created before `before` (abandoned). */
export async function releaseUploadsBefore(db: ScopedDatabase, before: Date): Promise<number> {
  if (!(await keepsReservations(db))) return 0;
  const { rows } = await db.query<{ count: number }>(
    `with gone as (delete from private.upload_reservations where created_at < $1 returning 1)
     select count(*)::int as count from gone`,
    [before.toISOString()],
  );
  return rows[0]?.count ?? 0;
}
