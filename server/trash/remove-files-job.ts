import type { JobKind } from '../jobs/job-runner.ts';
import { removePreviews } from '../previews/preview-cache.ts';
import { type FileStore, isStoredVersion } from '../storage/file-store.ts';
import { referencedVersions } from '../storage/queries.ts';

/** The job kind that removes the bytes of storage rows deleted in SQL (migration …0800). */
export const REMOVE_FILES_KIND = 'storage.remove-files';

/**
 * `storage.remove-files`: removes the stored bytes of the versions in its payload, whose
 * storage rows a database function deleted (documents deleted for ever), and their rendered
 * previews (those of this process: each process keeps its own cache, see
 * docs/several-processes.md). A version some row holds again is kept; a file already gone is
 * fine, so the job is safe to run twice.
 */
export function removeFilesJob(store: FileStore, dataDir: string): JobKind {
  return {
    async handle(job, { db }) {
      const listed = job.payload.versions;
      const versions = Array.isArray(listed) ? listed.filter(isStoredVersion) : [];
      if (versions.length === 0) return;
      const kept = await referencedVersions(db, versions);
      const removed = versions.filter((version) => !kept.has(version));
      for (const version of removed) await store.remove(version);
      await removePreviews(dataDir, removed);
    },
  };
}
