import type { Queryable } from '../db/database.ts';

/**
 * Writes steward.toml's `[storage] quota_per_organization` into the row the quota trigger reads
 * (migration 20261127000100), so the database enforces the configured quota for every writer.
 * A database without that migration (the storage service's own tests) has no quota to set.
 */
export async function applyStorageQuota(db: Queryable, bytes: number): Promise<void> {
  const { rows } = await db.query<{ present: boolean }>(
    "select to_regclass('private.storage_settings') is not null as present",
  );
  if (!rows[0]?.present) return;
  await db.query(
    `update private.storage_settings
        set quota_per_organization = $1, updated_at = now()
      where quota_per_organization is distinct from $1::bigint`,
    [String(bytes)],
  );
}
