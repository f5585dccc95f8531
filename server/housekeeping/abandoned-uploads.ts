import type { JobKind } from '../jobs/job-runner.ts';
import type { Schedule } from '../jobs/scheduler.ts';
import { everyMinutes } from '../jobs/scheduler.ts';
import type { ObjectStorageSettings } from '../config/object-storage-settings.ts';
import { openResumableStore } from '../storage/open-file-store.ts';
import { RESUMABLE_UPLOAD_LIFETIME_MS } from '../storage/resumable-store.ts';
import { releaseUploadsBefore } from '../storage/upload-reservations.ts';

/** The job kind that removes resumable uploads abandoned for a day. */
export const RESUMABLE_CLEANUP_KIND = 'storage.resumable-cleanup';

/**
 * Every hour, one cleanup job (its dedupe key keeps a second one from being added while the
 * first waits), so an upload is removed at most an hour after its day has passed.
 */
export const resumableCleanupSchedule: Schedule = {
  next: everyMinutes(60),
  async run(tx, now) {
    await tx.query(`select private.enqueue_job($1, '{}'::jsonb, null, $1, $2::timestamptz, 3)`, [
      RESUMABLE_CLEANUP_KIND,
      now.toISOString(),
    ]);
  },
};

/**
 * Removes the partial (and finished but never committed) uploads older than a day, and gives
 * back the room they reserved in their organisation's quota.
 */
export function resumableCleanupJob(dataDir: string, objects: ObjectStorageSettings): JobKind {
  const store = openResumableStore(dataDir, objects);
  return {
    async handle(_job, { clock, db }) {
      const now = clock.now();
      const removed = await store.removeAbandoned(now);
      if (removed > 0) console.log(`storage: removed ${removed} abandoned resumable upload(s)`);
      await releaseUploadsBefore(db, new Date(now.getTime() - RESUMABLE_UPLOAD_LIFETIME_MS));
    },
  };
}
