import type { JobKind } from '../jobs/job-runner.ts';
import type { HostedStorage } from '../storage/hosted-storage.ts';

/** The job kind that removes files through a hosted project's Storage (…41000000, …41000001). */
export const REMOVE_OBJECTS_KIND = 'storage.remove-objects';

/**
 * Which of `$1`'s names in each bucket a row still uses: a document or one of its versions, a
 * ready export, an import not yet done. Files of other buckets are never removed this way.
 */
const STILL_USED: Record<string, string> = {
  documents: `exists (select 1 from public.documents d where d.file_path = n.name)
              or exists (select 1 from public.document_versions v where v.file_path = n.name)`,
  exports: `exists (select 1 from public.organization_exports e where e.file_path = n.name)`,
  imports: `exists (select 1 from public.organization_imports i
                     where i.file_path = n.name and i.status in ('queued', 'running'))`,
};

/**
 * `storage.remove-objects` (a hosted project's worker only): deletes files no row uses any more
 * (documents deleted for ever, earlier and expired exports, abandoned import ZIPs) through
 * Storage's S3 protocol, which removes each object's row and bytes together. The database
 * functions leave the rows to it there, because a row deleted in SQL would leave its bytes in
 * Storage's backend for good. A file some row uses again is kept; one already gone is fine, so
 * the job is safe to run twice. A row still there afterwards (a Storage that removed the bytes
 * but kept the row) is deleted as the embedded functions delete rows, so that nothing counts
 * towards the quota for a file that is gone. The names of purged documents' files, which nobody
 * may read meanwhile, are forgotten at the end (`private.document_files_leaving`).
 */
export function removeObjectsJob(storage: HostedStorage): JobKind {
  return {
    async handle(job, { db }) {
      const { bucket, names } = job.payload;
      const stillUsed = typeof bucket === 'string' ? STILL_USED[bucket] : undefined;
      if (!stillUsed || !Array.isArray(names)) return;
      const listed = names.filter((name): name is string => typeof name === 'string');
      const { rows } = await db.query<{ name: string }>(
        `select n.name from unnest($1::text[]) n(name) where not (${stillUsed})`,
        [listed],
      );
      const removed = rows.map((row) => row.name);
      for (const name of removed) await storage.removeObject(bucket as string, name);
      await db.transaction(async (tx) => {
        await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
        await tx.query(
          `delete from storage.objects where bucket_id = $1 and name = any($2::text[])`,
          [bucket, removed],
        );
        // Purged files were kept from every reader until now (2026112900200): gone, or used by
        // a document again, they are not leaving any more.
        if (bucket === 'documents') {
          await tx.query(
            `delete from private.document_files_leaving where name = any($1::text[])`,
            [listed],
          );
        }
      });
    },
  };
}
