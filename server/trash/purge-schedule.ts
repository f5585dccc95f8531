import type { Queryable } from '../db/database.ts';
import type { Schedule } from '../jobs/scheduler.ts';
import { every } from '../jobs/scheduler.ts';

/** How often the scheduler looks for documents whose time in the trash is over. */
const PURGE_CHECK_INTERVAL_MS = 60 * 60_000;

/**
 * Every hour: deletes for ever the documents that have been in the trash longer than the
 * retention (`private.purge_expired_trash`, at most 1000 a run), in the schedule's own
 * transaction, which also queues the removal of their files' bytes. After downtime the first
 * run finds everything that expired meanwhile.
 */
export const trashPurgeSchedule = (): Schedule => ({
  next: every(PURGE_CHECK_INTERVAL_MS),
  async run(tx: Queryable, now: Date) {
    await tx.query(`select private.purge_expired_trash($1::timestamptz)`, [now.toISOString()]);
  },
});
