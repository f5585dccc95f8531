import type { JobKind } from '../jobs/job-runner.ts';
import type { HostedStorage } from '../storage/hosted-storage.ts';

/** The job kind that removes purged files through a hosted project's Storage (…41000000). */
export const REMOVE_OBJECTS_KIND = 'storage.remove-objects';

/**
 * `storage.remove-objects` (a hosted project's worker only): deletes the files of documents
 * deleted for ever through Storage's S3 protocol, which removes each object's row and bytes
 * together. `private.purge_documents` leaves the rows to it there, because a row deleted in
 * SQL would leave its bytes in Storage's backend for good. A file some document or version
 * names again is kept; one already gone is fine, so the job is safe to run twice. A row still
 * there afterwards (a Storage that removed the bytes but kept the row) is deleted as the
 * embedded purge deletes rows, so that nothing counts towards the quota for a file that is gone.
 */
export function removeObjectsJob(storage: HostedStorage): JobKind {
  return {
    async handle(job, { db }) {
      const { bucket, names } = job.payload;
      // Only purged documents' files are removed this way.
      if (bucket !== 'documents' || !Array.isArray(names)) return;
      const listed = names.filter((name): name is string => typeof name === 'string');
      const { rows } = await db.query<{ name: string }>(
        `select n.name from unnest($1::text[]) n(name)
          where not exists (select 1 from public.documents d where d.file_path = n.name)
            and not exists (select 1 from public.document_versions v where v.file_path = n.name)`,
        [listed],
      );
      const removed = rows.map((row) => row.name);
      for (const name of removed) await storage.removeObject(bucket, name);
      await db.transaction(async (tx) => {
        await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
        await tx.query(
          `delete from storage.objects where bucket_id = $1 and name = any($2::text[])`,
          [bucket, removed],
        );
      });
    },
  };
}
