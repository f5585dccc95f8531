import type { Schedule } from '../jobs/scheduler.ts';
import { everyMinutes } from '../jobs/scheduler.ts';

/**
 * Every ten minutes: deletes the shared request allowances (`_platform.request_allowances`,
 * server/auth/request-rate-limit.ts) that are full again, so that a row per client address
 * lasts no longer than its window. Registered where the allowances are kept, on PostgreSQL.
 */
export const requestAllowanceCleanupSchedule: Schedule = {
  next: everyMinutes(10),
  async run(tx, now) {
    await tx.query('select _platform.forget_full_request_allowances($1::timestamptz)', [
      now.toISOString(),
    ]);
  },
};
