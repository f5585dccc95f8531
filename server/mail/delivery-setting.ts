import type { Queryable } from '../db/database.ts';

/**
 * Tells the database how this installation delivers mail (`private.mail_settings`, migration
 * 20261127000500), so that the functions that record a message can answer at once whether it
 * will be sent or kept in the Outbox. A database without that migration has nothing to set.
 */
export async function applyMailDelivery(db: Queryable, smtp: boolean): Promise<void> {
  const { rows } = await db.query<{ present: boolean }>(
    "select to_regclass('private.mail_settings') is not null as present",
  );
  if (!rows[0]?.present) return;
  await db.query(
    `update private.mail_settings set delivery = $1, updated_at = now()
     where delivery is distinct from $1`,
    [smtp ? 'smtp' : 'outbox'],
  );
}
