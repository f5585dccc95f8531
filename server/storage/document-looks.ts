import type { Queryable, Statement } from '../db/database.ts';
import type { StorageScope } from './scope.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A preview (`viewed`: a signed link made or used) or a download of a document file. */
export type DocumentLook = 'viewed' | 'downloaded';

/**
 * "Who looked" (issue 23) is recorded for a signed-in member's reads of the documents bucket
 * (the database writes it only for files of restricted categories).
 */
export function recordsLooks(scope: StorageScope, bucketId: string): boolean {
  const sub = scope.caller.claims.sub;
  return (
    bucketId === 'documents' &&
    scope.caller.role === 'authenticated' &&
    typeof sub === 'string' &&
    UUID.test(sub)
  );
}

/**
 * `read` (a select of `storage.objects` run as the caller, with a `name` column) as one
 * statement that also records the look at every object it finds: the read's rows are the
 * objects row-level security let the caller see, and `public.record_document_looks` (which
 * re-checks that the caller may read each name, and writes only for restricted categories)
 * gets exactly those names, in the same snapshot, turn and round trip as the read. The
 * statement writes, so its batch is not READ ONLY.
 */
export function withDocumentLooks(read: Statement, look: DocumentLook): Statement {
  return {
    // The uncorrelated subquery runs once, before the rows are answered (a one-time filter).
    sql: `with found as materialized (${read.sql})
          select found.* from found
           where (select public.record_document_looks(array(select name from found), $${read.params.length + 1})) >= 0`,
    params: [...read.params, look],
  };
}

/** Records the look at `names`, which the caller's transaction has just read under RLS. */
export async function recordDocumentLooks(
  tx: Queryable,
  names: readonly string[],
  look: DocumentLook,
): Promise<void> {
  await tx.query('select public.record_document_looks($1::text[], $2)', [names, look]);
}
