import type { TextExtractionSettings } from '../config/text-extraction-settings.ts';
import type { Statement } from '../db/database.ts';
import { laneOf } from '../db/request-scope.ts';
import type { Job } from '../jobs/job-queries.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import { type FileStore, isStoredVersion } from '../storage/file-store.ts';
import { TaskMemoryLimitError, type ProcessPool } from '../workers/process-pool.ts';
import type { extractText } from '../workers/text-extraction-tasks.ts';

/** The job kind that reads a document's text; queued by triggers (migration …0600). */
export const EXTRACT_TEXT_JOB = 'document.extract-text';

/** The beginning of every reason a file ended without text because reading it failed. */
export const COULD_NOT_BE_READ = 'This file could not be read';

export interface ExtractTextJobOptions {
  /** The background processes: each file is read in one, under its memory cap. */
  pool: ProcessPool<{ extractText: typeof extractText }>;
  /** Where the files are; read from a local copy when they are not on this machine's disk. */
  store: FileStore;
  settings: TextExtractionSettings;
}

interface DocumentFile {
  name: string;
  object_version: string | null;
  mimetype: string | null;
  text_version: string | null;
  text_state: string | null;
}

/** The statement that records a version's text, or why it has none. */
const recordStatement = (
  job: { documentId: string; version: string | null },
  result: {
    state: 'ready' | 'failed' | 'unavailable';
    reason?: string | null;
    content?: string;
    pages?: number | null;
    truncated?: boolean;
  },
): Statement => ({
  sql: `select private.record_document_text($1, $2, $3, $4, $5, $6, $7)`,
  params: [
    job.documentId,
    job.version,
    result.state,
    result.reason ?? null,
    result.content ?? '',
    result.pages ?? null,
    result.truncated ?? false,
  ],
});

/**
 * `document.extract-text`: reads the text of one version of a document's file in a background
 * process and records it (or why there is none) in `document_texts`. Safe to run again: a job
 * for a version the document no longer has, or whose text is already recorded, does nothing.
 * A file that holds no readable text, or that cannot be read within the bounds (too large, or
 * past the process's memory cap, which a second attempt would pass again), is recorded as
 * unavailable at once, for good. Any other failure (the time limit, a crashed process) is
 * recorded as failed with its reason, and the job runner tries again later; after the last
 * attempt the file stays failed, "This file could not be read", and nothing reads it again
 * until its content changes (not even the next start: a file that fails every attempt must not
 * cost every start its attempts again).
 */
export function extractTextJob(options: ExtractTextJobOptions): JobKind {
  const { store } = options;
  return {
    timeoutMs: options.settings.timeoutMs,
    // A first start over a large library queues every document at once.
    bulk: true,
    async handle(job: Job, { db, signal, finishWith }) {
      const documentId = String(job.payload.document_id);
      const version = (job.payload.object_version as string | null) ?? null;
      const target = { documentId, version };
      // The text (or why there is none) recorded and the job marked done in one transaction.
      const done = async (result: Parameters<typeof recordStatement>[1]) => {
        await finishWith(recordStatement(target, result));
      };
      const { rows } = await db.query<DocumentFile>(
        `select d.name, o.version as object_version, o.metadata ->> 'mimetype' as mimetype,
                t.object_version as text_version, t.state as text_state
           from public.documents d
           left join storage.objects o on o.bucket_id = 'documents' and o.name = d.file_path
           left join public.document_texts t on t.document_id = d.id
          where d.id = $1`,
        [documentId],
      );
      const file = rows[0];
      // Deleted, replaced by a newer version (whose own job reads it), or already read.
      if (!file || file.object_version !== version) return;
      if (
        file.text_version === version &&
        ['ready', 'unavailable'].includes(file.text_state ?? '')
      ) {
        return;
      }
      if (!isStoredVersion(version)) {
        await done({ state: 'unavailable', reason: 'The file is missing' });
        return;
      }
      let result: Awaited<ReturnType<typeof extractText>>;
      try {
        result = await store.withLocalFiles([version], ([path]) =>
          options.pool.run(
            'extractText',
            {
              path: path!,
              name: file.name,
              mimeType: file.mimetype ?? '',
              maxPages: options.settings.maxPages,
              maxOcrPages: options.settings.maxOcrPages,
              maxCharacters: options.settings.maxCharacters,
              maxImagePixels: options.settings.maxImagePixels,
              maxUnpackedBytes: options.settings.maxUnpackedBytes,
            },
            { lane: laneOf(db.scope), signal },
          ),
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          await done({ state: 'unavailable', reason: 'The file is missing' });
          return;
        }
        if (error instanceof TaskMemoryLimitError && !signal.aborted) {
          await done({ state: 'unavailable', reason: `${COULD_NOT_BE_READ}: ${error.message}` });
          return;
        }
        const cause = signal.aborted ? signal.reason : error;
        const message = cause instanceof Error ? cause.message : String(cause);
        const last = job.attempt >= job.maxAttempts;
        const { sql, params } = recordStatement(target, {
          state: 'failed',
          reason: last
            ? `${COULD_NOT_BE_READ}: ${message}`
            : `Reading the file failed: ${message}; it is tried again later`,
        });
        await db.query(sql, params);
        throw cause;
      }
      if (result.state === 'ready') {
        await done({
          state: 'ready',
          content: result.text,
          pages: result.pages,
          truncated: result.truncated,
        });
      } else {
        await done({ state: 'unavailable', reason: result.reason });
      }
    },
  };
}
