import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable, ScopedDatabase } from '../db/database.ts';
import { laneOf } from '../db/request-scope.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import { type FileStore, isStoredVersion } from '../storage/file-store.ts';
import type { HostedStorage } from '../storage/hosted-storage.ts';
import type { ProcessPool } from '../workers/process-pool.ts';
import type { ExportZipEntry, writeExportZip } from './export-zip-task.ts';
import { archivePaths, categoryFolder, worthCompressing } from './archive-names.ts';
import { readExportContents, type ExportFile } from './export-manifest.ts';
import { manifestCsv } from './manifest.ts';

/** The job kind that builds an organisation's export ZIP (started by `start_organization_export`). */
export const EXPORT_KIND = 'organization.export';

/** Longest one attempt may take: a 5 GB organisation is written in a few minutes. */
const EXPORT_TIMEOUT_MS = 30 * 60_000;
/** How often the progress shown to the admin is brought up to date. */
const PROGRESS_INTERVAL_MS = 2000;

export interface ExportJobOptions {
  /** The background processes: the ZIP is written in one of them, under its memory cap. */
  cpu: ProcessPool<{ writeExportZip: typeof writeExportZip }>;
  /** Where the files are read from and the ZIP is kept (read from local copies when remote). */
  store: FileStore;
  /** How long the finished export stays downloadable (steward.toml `[transfer]`). */
  retentionMs: number;
  /**
   * A hosted project's Storage, when the worker serves one: the ZIP is uploaded there under
   * its name, and Storage records its row (storage/hosted-storage.ts).
   */
  hostedStorage?: HostedStorage | null;
}

interface ExportRow {
  id: string;
  organization_id: string;
  requested_by: string | null;
  include_versions: boolean;
  status: string;
}

/**
 * `organization.export`: reads the organisation's documents, versions and history in one
 * snapshot, has a worker thread of the background pool stream their files into one ZIP
 * (export-zip-task.ts) under a temporary name in the file store, then renames it and records
 * it as the object `exports/{organization_id}/{export_id}.zip` with the export `ready`, in one
 * transaction that also writes the history entry. A new attempt (after a failure, a timeout
 * or a crash) starts from scratch: the temporary file of an earlier attempt is overwritten, or
 * removed at start-up by the store's sweep. After the last attempt the export is `failed`.
 */
export function exportJob(options: ExportJobOptions): JobKind {
  const { store } = options;
  return {
    timeoutMs: EXPORT_TIMEOUT_MS,
    retryDelaySeconds: (attempt) => 30 * attempt,
    async handle(job, { db, clock, signal }) {
      const exportId = job.payload.export_id;
      if (!isStoredVersion(exportId)) return;
      const row = (
        await db.query<ExportRow>(
          `select id, organization_id, requested_by, include_versions, status
           from public.organization_exports where id = $1`,
          [exportId],
        )
      ).rows[0];
      if (!row || !['queued', 'running'].includes(row.status)) return;
      // The ZIP's bytes are stored under the export's id (a uuid the database made), written
      // first to a local file of the store's, which it then keeps.
      const temp = store.scratchFile(row.id);
      try {
        await db.query(
          `update public.organization_exports set status = 'running', progress = 0, error = null
           where id = $1`,
          [row.id],
        );
        const contents = await db.transaction(async (tx) => {
          await tx.query('set transaction isolation level repeatable read');
          return readExportContents(tx, row.organization_id, {
            requestedBy: row.requested_by,
            includeVersions: row.include_versions,
            exportedAt: clock.now(),
          });
        });
        const entries = await zipEntries(store, contents, row.include_versions);
        const totalBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
        await mkdir(path.dirname(temp), { recursive: true });
        await rm(temp, { force: true });
        const progress = reportProgress(db, row.id, temp, totalBytes);
        let written;
        try {
          written = await store.withLocalFiles(
            entries.map((entry) => entry.version),
            (sources) =>
              options.cpu.run(
                'writeExportZip',
                {
                  target: temp,
                  manifestJson: JSON.stringify(contents.manifest, null, 2),
                  manifestCsv: manifestCsv(contents.manifest),
                  entries: entries.map(({ version: _version, ...entry }, index) => ({
                    ...entry,
                    source: sources[index]!,
                  })),
                },
                // One export may wait its turn behind other background work.
                { lane: laneOf(db.scope), signal, maxWaitMs: EXPORT_TIMEOUT_MS },
              ),
          );
        } finally {
          clearInterval(progress);
        }
        signal.throwIfAborted();
        const name = `${row.organization_id}/${row.id}.zip`;
        if (options.hostedStorage) {
          await options.hostedStorage.put('exports', name, temp, 'application/zip');
          await rm(temp, { force: true });
        } else {
          await store.keep(temp, row.id);
        }
        await finish(db, row, name, !options.hostedStorage, {
          documentCount: contents.manifest.documents.length,
          size: written.size,
          eTag: written.eTag,
          sha256: written.sha256,
          expiresAt: new Date(clock.now().getTime() + options.retentionMs),
        });
      } catch (error) {
        await rm(temp, { force: true });
        if (job.attempt >= job.maxAttempts) {
          await db.query(
            `update public.organization_exports
             set status = 'failed', error = 'The export could not be completed', finished_at = now()
             where id = $1 and status in ('queued', 'running')`,
            [row.id],
          );
        }
        throw error;
      }
    },
  };
}

/**
 * The ZIP's files: each document's current file in its category's folder and, when included,
 * its versions under `versions/{category}/`. Sets each manifest entry's `file`; a file whose
 * stored bytes are missing stays `null` there and is left out.
 */
async function zipEntries(
  store: FileStore,
  contents: Awaited<ReturnType<typeof readExportContents>>,
  includeVersions: boolean,
): Promise<(Omit<ExportZipEntry, 'source'> & { version: string })[]> {
  const planned: {
    folder: string;
    name: string;
    file_path: string;
    file: ExportFile;
    setPath: (path: string) => void;
  }[] = [];
  contents.manifest.documents.forEach((document, index) => {
    const folder = categoryFolder(document.category);
    const files = contents.files[index]!;
    planned.push({
      folder,
      name: document.name,
      file_path: files.current.filePath,
      file: files.current,
      setPath: (p) => (document.file = p),
    });
    document.versions.forEach((version, n) => {
      if (!includeVersions) return;
      planned.push({
        folder: `versions/${folder}`,
        name: version.name.replace(
          /(\.[A-Za-z0-9]{1,10})?$/,
          (extension) => ` (version ${version.version_number})${extension}`,
        ),
        file_path: files.versions[n]!.filePath,
        file: files.versions[n]!,
        setPath: (p) => (version.file = p),
      });
    });
  });
  const present = await Promise.all(
    planned.map(async ({ file }) => {
      if (!file.version || !isStoredVersion(file.version)) return false;
      return (await store.sizeOf(file.version)) === file.size;
    }),
  );
  const kept = planned.filter((_, index) => present[index]);
  const paths = archivePaths(kept);
  return kept.map((item, index) => {
    item.setPath(paths[index]!);
    return {
      name: paths[index]!,
      version: item.file.version!,
      size: item.file.size,
      compress: worthCompressing(paths[index]!),
      mtime: item.file.mtime,
    };
  });
}

/** Every few seconds, the share of the files' bytes written so far (at most 99 until ready). */
function reportProgress(db: ScopedDatabase, exportId: string, temp: string, totalBytes: number) {
  const timer = setInterval(() => {
    void stat(temp)
      .then((stats) =>
        db.query(
          `update public.organization_exports set progress = $2
           where id = $1 and status = 'running' and progress <> $2`,
          [exportId, Math.min(99, Math.floor((stats.size / Math.max(totalBytes, 1)) * 100))],
        ),
      )
      .catch(() => {});
  }, PROGRESS_INTERVAL_MS);
  timer.unref();
  return timer;
}

/**
 * Records the ZIP as the object `exports/{organization_id}/{export_id}.zip` (unless hosted
 * Storage recorded it, `recordObject` false), marks the export ready, writes the history entry (as the admin who asked for it) and removes the
 * organisation's earlier exports, in one transaction.
 */
async function finish(
  db: ScopedDatabase,
  row: ExportRow,
  name: string,
  recordObject: boolean,
  result: { documentCount: number; size: number; eTag: string; sha256: string; expiresAt: Date },
): Promise<void> {
  await db.transaction(async (tx: Queryable) => {
    await tx.query(`select set_config('request.jwt.claim.sub', $1, true)`, [
      row.requested_by ?? '',
    ]);
    const now = new Date().toISOString();
    // Hosted Storage recorded the object's row itself when the ZIP was uploaded.
    if (recordObject)
      await tx.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
       values ('exports', $1, $2::uuid, $2::text, $3, $4::jsonb)
       on conflict (bucket_id, name) do update set version = excluded.version,
         metadata = excluded.metadata, updated_at = now()`,
        [
          name,
          row.requested_by,
          row.id,
          JSON.stringify({
            eTag: result.eTag,
            size: result.size,
            sha256: result.sha256,
            mimetype: 'application/zip',
            cacheControl: 'no-cache',
            lastModified: now,
            contentLength: result.size,
            httpStatusCode: 200,
          }),
        ],
      );
    await tx.query(
      `update public.organization_exports
       set status = 'ready', progress = 100, document_count = $2, file_path = $3, size = $4,
           finished_at = now(), expires_at = $5, error = null
       where id = $1`,
      [row.id, result.documentCount, name, result.size, result.expiresAt.toISOString()],
    );
    await tx.query(
      `select private.log_activity($1, 'organization.exported', null, null,
         jsonb_build_object('documents', $2::integer, 'size', $3::bigint))`,
      [row.organization_id, result.documentCount, result.size],
    );
    // Only the latest export is kept: exports do not count towards the quota (an organisation
    // must be able to take its documents out when its storage is full), so this bounds them.
    await tx.query(`select private.remove_earlier_exports($1, $2)`, [row.organization_id, row.id]);
  });
}
