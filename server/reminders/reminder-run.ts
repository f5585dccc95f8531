import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import type { Schedule } from '../jobs/scheduler.ts';
import { every } from '../jobs/scheduler.ts';

/** The job kind that runs one organisation's reminders for one local date. */
export const REMINDER_RUN_KIND = 'reminders.organization';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Every `checkIntervalMs` (steward.toml `[reminders] check_interval`, 15 minutes: time zones are
 * offset by quarters of an hour): one job per organisation whose reminder hour has come today
 * in its time zone and that has not had today's run (`private.due_reminder_runs`). The jobs are
 * added in the schedule's own transaction, with a dedupe key per organisation and date; after
 * downtime the first check finds every organisation whose hour passed meanwhile.
 */
export const reminderSchedule = (checkIntervalMs: number): Schedule => ({
  next: every(checkIntervalMs),
  async run(tx: Queryable, now: Date) {
    await tx.query(
      `select private.enqueue_job($2, jsonb_build_object('organization_id', r.organization_id,
                                                         'local_date', r.local_date),
                                  r.organization_id,
                                  format('reminders:%s:%s', r.organization_id, r.local_date),
                                  $1::timestamptz, 3)
       from private.due_reminder_runs($1::timestamptz) r`,
      [now.toISOString(), REMINDER_RUN_KIND],
    );
  },
});

/**
 * Runs `private.run_reminders` for the job's organisation and date: in one statement, so the
 * day's run, the thresholds it fires and the digests it records are committed together or not
 * at all (and a second runner given the same work finds the day claimed and does nothing).
 * Then wakes the job runner, which delivers the digests.
 */
export function reminderRunJob(ctx: AppContext): JobKind {
  return {
    async handle(job, { db }) {
      const { organization_id: organizationId, local_date: localDate } = job.payload;
      if (typeof organizationId !== 'string' || !UUID.test(organizationId)) return;
      if (typeof localDate !== 'string' || !DATE.test(localDate)) return;
      const { rows } = await db.query<{ digests: number }>(
        `select private.run_reminders($1::uuid, $2::date) as digests`,
        [organizationId, localDate],
      );
      if ((rows[0]?.digests ?? 0) > 0) ctx.jobs.wake();
    },
  };
}
