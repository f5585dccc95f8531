import type { Queryable } from '../db/database.ts';
import type { Schedule } from '../jobs/scheduler.ts';
import { every } from '../jobs/scheduler.ts';

/** How often the scheduler looks for expired exports and abandoned import uploads. */
const CHECK_INTERVAL_MS = 60 * 60_000;

/**
 * Every hour: removes exports whose download time (steward.toml `[transfer]
 * export_retention`) is over and import ZIPs left unused for a day
 * (`private.expire_organization_transfers`), in the schedule's own transaction.
 */
export const transferExpirySchedule = (): Schedule => ({
  next: every(CHECK_INTERVAL_MS),
  async run(tx: Queryable, now: Date) {
    await tx.query(`select private.expire_organization_transfers($1::timestamptz)`, [
      now.toISOString(),
    ]);
  },
});
