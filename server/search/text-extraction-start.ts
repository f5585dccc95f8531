import type { Queryable } from '../db/database.ts';

/** Documents looked at per statement: each batch is a short turn of the database. */
const BATCH_SIZE = 500;

/**
 * Turns text extraction on for this database and queues every document whose file was never
 * read (on the first start after the upgrade that added it: the whole library), and those whose
 * reading failed every attempt. One batch of documents per statement, so that a large library
 * never holds the database for long: other callers take their turns between batches. Returns
 * how many documents were queued. A database without the migration (the services' own tests)
 * has nothing to turn on. `signal` stops it between batches (the server stops).
 */
export async function startTextExtraction(db: Queryable, signal?: AbortSignal): Promise<number> {
  const { rows } = await db.query<{ present: boolean }>(
    "select to_regprocedure('private.start_text_extraction_batch(uuid, integer)') is not null as present",
  );
  if (!rows[0]?.present) return 0;
  let after: string | null = null;
  let queued = 0;
  while (!signal?.aborted) {
    const result: { rows: { last_id: string | null; queued: number }[] } = await db.query(
      'select last_id, queued from private.start_text_extraction_batch($1, $2)',
      [after, BATCH_SIZE],
    );
    const batch = result.rows[0];
    if (!batch?.last_id) return queued;
    queued += Number(batch.queued);
    after = batch.last_id;
  }
  return queued;
}
