import type { ScopedDatabase, Queryable, Row, Statement } from '../db/database.ts';
import type { DocumentLook } from './document-looks.ts';
import { recordsLooks, withDocumentLooks } from './document-looks.ts';
import type { StorageScope } from './scope.ts';
import { batchAsCaller } from './scope.ts';

/** A timestamp as the storage server's JSON shows it: ISO 8601 in UTC, milliseconds. */
export const isoTimestamp = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The metadata the storage server keeps for every object (supabase-compat.md §4.2). */
export interface ObjectMetadata {
  eTag: string;
  size: number;
  /**
   * SHA-256 of the bytes (hex), which Supabase's storage server does not record; copied onto
   * the document by a trigger (migration 20261127000602) to find duplicates.
   */
  sha256?: string;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

/** A `storage.objects` row as the API returns it. */
export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Partial<ObjectMetadata> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string | null;
  updated_at: string | null;
  last_accessed_at: string | null;
}

export const OBJECT_COLUMNS = `id, bucket_id, name, owner, owner_id, version, metadata, user_metadata,
  ${isoTimestamp('created_at')} as created_at,
  ${isoTimestamp('updated_at')} as updated_at,
  ${isoTimestamp('last_accessed_at')} as last_accessed_at`;

/** The limits of a bucket that uploads must respect. */
export interface BucketInfo {
  id: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

/** Looks a bucket up with the server's own connection (as the storage server does for uploads). */
export async function findBucket(db: Queryable, id: string): Promise<BucketInfo | null> {
  const { sql, params } = findBucketStatement(id);
  return bucketOf((await db.query(sql, params)).rows);
}

/** The statement of `findBucket`, for a batch; `bucketOf` reads its rows. */
export function findBucketStatement(id: string): Statement {
  return {
    sql: 'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    params: [id],
  };
}

export function bucketOf(rows: Row[]): BucketInfo | null {
  const row = rows[0] as
    | {
        id: string;
        public: boolean | null;
        file_size_limit: string | null;
        allowed_mime_types: string[] | null;
      }
    | undefined;
  if (!row) return null;
  return {
    id: row.id,
    public: row.public === true,
    fileSizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    allowedMimeTypes: row.allowed_mime_types,
  };
}

/** One object as `db` may see it (as the caller under RLS, or the server's own connection). */
export async function findObject(
  db: Queryable,
  bucketId: string,
  name: string,
): Promise<ObjectRow | null> {
  const { sql, params } = findObjectStatement(bucketId, name);
  const { rows } = await db.query<ObjectRow>(sql, params);
  return rows[0] ?? null;
}

/** The statement of `findObject`, for a batch (`batchAsCaller`). */
export function findObjectStatement(bucketId: string, name: string): Statement {
  return {
    sql: `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    params: [bucketId, name],
  };
}

/**
 * Reads objects as the caller under RLS in one round trip (see `batchAsCaller`): `read` is a
 * select of `storage.objects` with a `name` column. With `look`, the look at each document file
 * it finds is recorded in the same statement (document-looks.ts), which then writes and so
 * commits with it instead of running READ ONLY.
 */
export function readObjectsAsCaller<T>(
  db: ScopedDatabase,
  scope: StorageScope,
  bucketId: string,
  read: Statement,
  finish: (rows: Row[]) => T,
  look?: DocumentLook,
): Promise<T> {
  return look !== undefined && recordsLooks(scope, bucketId)
    ? batchAsCaller(db, scope, [withDocumentLooks(read, look)], finish, {
        readOnly: false,
        ends: 'commit',
      })
    : batchAsCaller(db, scope, [read], finish, { readOnly: true });
}

/** One object as the caller may see it under RLS (`readObjectsAsCaller`). */
export function findObjectAsCaller(
  db: ScopedDatabase,
  scope: StorageScope,
  bucketId: string,
  name: string,
  look?: DocumentLook,
): Promise<ObjectRow | null> {
  return readObjectsAsCaller(
    db,
    scope,
    bucketId,
    findObjectStatement(bucketId, name),
    (rows) => (rows[0] as ObjectRow | undefined) ?? null,
    look,
  );
}

/**
 * Serialises writers of one object name for the rest of the transaction, so that the version
 * read before an upsert is the one it replaces (and whose file is deleted after commit).
 */
export async function lockObjectName(tx: Queryable, bucketId: string, name: string): Promise<void> {
  const { sql, params } = lockObjectNameStatement(bucketId, name);
  await tx.query(sql, params);
}

/** The statement of `lockObjectName`, for a batch. */
export function lockObjectNameStatement(bucketId: string, name: string): Statement {
  return {
    sql: 'select pg_advisory_xact_lock(hashtextextended($1, 7305))',
    params: [`${bucketId}/${name}`],
  };
}

/** The versions among `versions` that some object row still holds. */
export async function referencedVersions(db: Queryable, versions: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ version: string }>(
    'select version from storage.objects where version = any($1::text[])',
    [versions],
  );
  return new Set(rows.map((row) => row.version));
}
