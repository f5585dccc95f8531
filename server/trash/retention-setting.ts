import type { Queryable } from '../db/database.ts';

/**
 * Writes steward.toml's `[trash] retention` into the row the trash functions read (migration
 * 20261127000800): the scheduler's purge and the date the Trash page shows both follow it.
 * A database without that migration (the storage service's own tests) has no trash.
 */
export async function applyTrashRetention(db: Queryable, retentionMs: number): Promise<void> {
  const { rows } = await db.query<{ present: boolean }>(
    "select to_regclass('private.trash_settings') is not null as present",
  );
  if (!rows[0]?.present) return;
  await db.query(
    `update private.trash_settings
        set retention = make_interval(secs => $1::double precision / 1000), updated_at = now()
      where retention is distinct from make_interval(secs => $1::double precision / 1000)`,
    [retentionMs],
  );
}
