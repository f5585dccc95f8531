import type { Queryable } from '../db/database.ts';

/**
 * Turns text extraction on for this database and queues every document whose file was never
 * read (on the first start after the upgrade that added it: the whole library), and those whose
 * reading failed every attempt. Returns how many documents were looked at. A database without
 * the migration (the services' own tests) has nothing to turn on.
 */
export async function startTextExtraction(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ present: boolean }>(
    "select to_regprocedure('private.start_text_extraction()') is not null as present",
  );
  if (!rows[0]?.present) return 0;
  const result = await db.query<{ queued: number }>(
    'select private.start_text_extraction() as queued',
  );
  return result.rows[0]?.queued ?? 0;
}
