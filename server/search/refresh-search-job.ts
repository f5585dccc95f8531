import type { JobKind } from '../jobs/job-runner.ts';

/** The job kind that brings search vectors up to date after a large change (migration …0201). */
export const REFRESH_SEARCH_JOB = 'document.refresh-search';

/** Bytes of search vectors rewritten per statement: a short turn of the database each. */
const BATCH_BYTES = 1024 * 1024;

/**
 * `document.refresh-search`: rewrites the search vectors of the organisation's documents whose
 * properties a large change altered (`private.search_refresh`), a batch per statement, until
 * none is left; other organisations' requests take their turns between batches. Safe to run
 * twice, and with another job of the same organisation: each batch takes its documents off the
 * queue in the statement that rewrites them.
 */
export function refreshSearchJob(): JobKind {
  return {
    // A change of thousands of documents queues thousands of rewrites.
    bulk: true,
    async handle(job, { db, signal }) {
      while (!signal.aborted) {
        const { rows } = await db.query<{ taken: number }>(
          'select private.refresh_queued_document_search($1, $2) as taken',
          [job.organizationId, BATCH_BYTES],
        );
        if (Number(rows[0]?.taken ?? 0) === 0) return;
      }
    },
  };
}
