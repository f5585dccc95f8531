import type { Schedule } from '../jobs/scheduler.ts';
import { everyMinutes } from '../jobs/scheduler.ts';
import { REMOVE_OBJECTS_KIND } from './remove-objects-job.ts';

/** The schedule that asks again for the removal of purged files still waiting for it. */
export const LEAVING_FILES_RETRY = 'storage.retry-leaving-files';

/** Names per removal job, so that one job stays a bounded piece of work. */
const NAMES_PER_JOB = 500;

/**
 * On a hosted project, the files of purged documents are withheld from every reader until the
 * job `storage.remove-objects` has removed them through Storage (`private.document_files_leaving`,
 * 2026112900200). A job that failed for good (Storage down through all its attempts) would leave
 * them withheld, and in the bucket, for ever: every hour, the names waiting for over an hour with
 * no removal job pending are given one again, per organisation, in batches. A file some document
 * uses again is kept by the job, which forgets its name.
 */
export const leavingFilesRetrySchedule: Schedule = {
  next: everyMinutes(60),
  async run(tx, now) {
    await tx.query(
      `select private.enqueue_job($1, jsonb_build_object('bucket', 'documents', 'names', to_jsonb(b.names)),
                                  b.organization_id)
         from (select w.organization_id, array_agg(w.name order by w.name) as names
                 from (select l.name, l.organization_id,
                              (row_number() over (partition by l.organization_id order by l.name) - 1)
                                / $3 as batch
                         from private.document_files_leaving l
                        where l.since < $2::timestamptz - interval '1 hour'
                          and not exists (select 1 from private.jobs j
                                           where j.kind = $1 and j.finished_at is null
                                             and j.failed_at is null
                                             and j.payload -> 'names' ? l.name)) w
                group by w.organization_id, w.batch) b`,
      [REMOVE_OBJECTS_KIND, now.toISOString(), NAMES_PER_JOB],
    );
  },
};
