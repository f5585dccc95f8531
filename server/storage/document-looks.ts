import type { Database } from '../db/database.ts';
import type { StorageScope } from './scope.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * "Who looked" (issue 23): a preview (`viewed`: a signed link made or used) or a download of a
 * stored document file is recorded in the document's history when its category is restricted
 * (`private.record_document_look`, which writes nothing for any other file). Called after row-
 * level security let the caller (or the link's signer) read the object, with the server's own
 * connection, since the history is written by the database alone.
 */
export async function recordDocumentLooks(
  db: Database,
  scope: StorageScope,
  bucketId: string,
  names: readonly string[],
  action: 'viewed' | 'downloaded',
): Promise<void> {
  const sub = scope.caller.claims.sub;
  if (bucketId !== 'documents' || typeof sub !== 'string' || !UUID.test(sub)) return;
  for (const name of names) {
    await db.query('select private.record_document_look($1, $2, $3)', [sub, name, action]);
  }
}
