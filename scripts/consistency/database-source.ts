import type { Database, Queryable } from '../../server/db/database.ts';
import { isoTimestamp } from '../../server/storage/queries.ts';
import type { DocumentEntry, ObjectEntry, StorageTotalDrift } from './inventory.ts';

/** Thrown when the database is not one Steward made (nothing to compare). */
export class NotStewardDatabaseError extends Error {}

const numberOrNull = (value: unknown) =>
  value === null || value === undefined || value === '' ? null : Number(value);

export interface DatabaseRows {
  documents: DocumentEntry[];
  versionFiles: string[];
  objects: ObjectEntry[];
  buckets: string[];
  storageTotalDrifts: StorageTotalDrift[];
}

/**
 * Every document row and every storage object, read with the server's own connection (which
 * bypasses row-level security, as the storage server's does) in one repeatable-read
 * transaction: one snapshot, so a running server's upload or delete cannot fall between the
 * reads.
 */
export function readDatabaseRows(db: Database): Promise<DatabaseRows> {
  return db.serverWork().transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read, read only');
    return readRows(tx);
  });
}

async function readRows(db: Queryable): Promise<DatabaseRows> {
  const { rows: tables } = await db.query<{
    documents: string | null;
    objects: string | null;
    versions: string | null;
    totals: string | null;
  }>(
    `select to_regclass('public.documents')::text as documents,
            to_regclass('storage.objects')::text as objects,
            to_regclass('public.document_versions')::text as versions,
            to_regclass('private.organization_storage_totals')::text as totals`,
  );
  if (!tables[0]?.documents || !tables[0]?.objects) {
    throw new NotStewardDatabaseError(
      'This database has no public.documents or storage.objects table: is it a Steward database?',
    );
  }
  const documents = await db.query<{
    id: string;
    organization_id: string;
    name: string;
    file_path: string;
    size: string;
    created_at: string;
  }>(
    `select id, organization_id, name, file_path, size, ${isoTimestamp('created_at')} as created_at
       from public.documents order by created_at, id`,
  );
  const objects = await db.query<{
    id: string;
    bucket_id: string;
    name: string;
    version: string | null;
    size: string | null;
    created_at: string | null;
  }>(
    `select id, bucket_id, name, version, metadata->>'size' as size,
            ${isoTimestamp('created_at')} as created_at
       from storage.objects order by bucket_id, name`,
  );
  const buckets = await db.query<{ id: string }>('select id from storage.buckets order by id');
  // A database from before versions (migration 20261127000501) has none.
  const versionFiles = tables[0].versions
    ? (await db.query<{ file_path: string }>('select file_path from public.document_versions')).rows
    : [];
  // A database from before the running totals (migration 20261202010000) has none. Read in the
  // same snapshot as the objects, which a total changes with in one transaction.
  const drifts = tables[0].totals
    ? (
        await db.query<{ organization_id: string; recorded: string; counted: string }>(
          `select coalesce(t.organization_id, c.organization_id)::text as organization_id,
                  coalesce(t.bytes, 0)::text as recorded, coalesce(c.bytes, 0)::text as counted
             from private.organization_storage_totals t
             full join (
               select private.object_organization_id(o.bucket_id, o.name) as organization_id,
                      sum(private.object_bytes(o.metadata)) as bytes
                 from storage.objects o
                where o.bucket_id in ('documents', 'branding', 'imports')
                group by 1
             ) c on c.organization_id = t.organization_id
            where (t.organization_id is not null or c.organization_id is not null)
              and coalesce(t.bytes, 0) <> coalesce(c.bytes, 0)
            order by 1`,
        )
      ).rows
    : [];
  return {
    storageTotalDrifts: drifts.map((row) => ({
      organizationId: row.organization_id,
      recorded: Number(row.recorded),
      counted: Number(row.counted),
    })),
    versionFiles: versionFiles.map((row) => row.file_path),
    documents: documents.rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      name: row.name,
      filePath: row.file_path,
      size: Number(row.size),
      createdAt: row.created_at,
    })),
    objects: objects.rows.map((row) => ({
      id: row.id,
      bucketId: row.bucket_id,
      name: row.name,
      version: row.version,
      size: numberOrNull(row.size),
      createdAt: row.created_at,
    })),
    buckets: buckets.rows.map((row) => row.id),
  };
}

/**
 * Deletes the rows of orphaned objects of the documents bucket, re-checking in the same
 * statement that still no document points at them (a row inserted since the check keeps its
 * object). Returns the versions whose files may now be deleted.
 */
export async function deleteOrphanObjectRows(db: Database, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows: tables } = await db
    .serverWork()
    .query<{ versions: string | null }>(
      `select to_regclass('public.document_versions')::text as versions`,
    );
  const noVersion = tables[0]?.versions
    ? 'and not exists (select 1 from public.document_versions v where v.file_path = o.name)'
    : '';
  const { rows } = await db.serverWork().transaction(async (tx) => {
    // Storage tables refuse a direct DELETE without this (platform SQL 007, as hosted).
    await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
    return tx.query<{ version: string | null }>(
      `delete from storage.objects o
        where o.id = any($1::uuid[]) and o.bucket_id = 'documents'
          and not exists (select 1 from public.documents d where d.file_path = o.name)
          ${noVersion}
        returning o.version`,
      [ids],
    );
  });
  return rows.flatMap((row) => (row.version ? [row.version] : []));
}

/**
 * Recounts the running storage totals of `organizationIds` from their objects, each under its
 * organisation's quota lock (`private.recount_organization_storage`), so a write in between
 * waits and adds to the recounted total. Returns how many were recounted.
 */
export async function recountStorageTotals(
  db: Database,
  organizationIds: string[],
): Promise<number> {
  if (organizationIds.length === 0) return 0;
  // In the organisations' order, as every writer takes their locks.
  const ids = [...organizationIds].sort();
  await db.serverWork().transaction(async (tx) => {
    for (const id of ids) {
      await tx.query('select private.recount_organization_storage($1)', [id]);
    }
  });
  return ids.length;
}
