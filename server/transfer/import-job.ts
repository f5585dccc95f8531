import { randomBytes } from 'node:crypto';
import type { ScopedDatabase } from '../db/database.ts';
import { laneOf } from '../db/request-scope.ts';
import { isPostgresError } from '../db/database.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import { type FileStore, isStoredVersion } from '../storage/file-store.ts';
import type { ObjectStorageSettings } from '../config/object-storage-settings.ts';
import type { ProcessPool } from '../workers/process-pool.ts';
import type { HostedStorage } from '../storage/hosted-storage.ts';
import {
  hostedImportPrefix,
  importFiles,
  type ImportFiles,
  removeImportFiles,
} from './import-files.ts';
import type { ImportRoom, readImportZip, UnpackedDocument } from './import-zip-task.ts';
import type { ImportAccess } from './manifest.ts';
import type { TransferSettings } from '../config/transfer-settings.ts';

/** The job kind that imports an uploaded export ZIP (started by `start_organization_import`). */
export const IMPORT_KIND = 'organization.import';

const IMPORT_TIMEOUT_MS = 30 * 60_000;

export interface ImportJobOptions {
  /** The background processes: the ZIP is read in one of them, under its memory cap. */
  cpu: ProcessPool<{ readImportZip: typeof readImportZip }>;
  store: FileStore;
  /** What the background process opens its own file store with. */
  dataDir: string;
  objects: ObjectStorageSettings;
  settings: TransferSettings;
  /**
   * A hosted project's Storage, when the worker serves one: the documents' files are written
   * there as Storage keeps them, under their names (import-files.ts), and the uploaded ZIP
   * leaves through Storage (`storage.remove-objects`).
   */
  hostedStorage?: HostedStorage | null;
}

interface ImportRow {
  id: string;
  organization_id: string;
  requested_by: string | null;
  file_path: string;
  status: string;
}

/**
 * `organization.import`: a worker thread checks the uploaded ZIP whole and unpacks its
 * documents' files into the file store (import-zip-task.ts), within the unpack limit and the
 * room the organisation has left, counted as it writes; then one transaction, run as the admin
 * who started it, adds their storage rows and documents (`private.finish_organization_import`),
 * within the organisation's quota. A refused ZIP (not a ZIP, not a Steward export, unsafe
 * names, a ZIP bomb, past the limits or the quota) ends the import as `failed` with its reason
 * and nothing written. Files unpacked by an attempt that did not commit are removed, also when
 * its thread was stopped mid-way (they are named after the import, import-files.ts), and
 * before a new attempt starts. The uploaded ZIP is removed once the import has run.
 *
 * On a hosted project the files are the objects `documents/{organisation}/import-{import}-…`
 * of Storage's documents bucket, written through its S3 protocol (which records their rows, as
 * it does for any upload). The storage read policy withholds such names from every reader
 * until the import is done (2026112900200), so nothing half-imported is visible; a failed
 * attempt removes them through Storage, as it removes them from the file store embedded.
 */
export function importJob(options: ImportJobOptions): JobKind {
  const { store } = options;
  const hosted = options.hostedStorage ?? null;
  const prefixOf = (row: ImportRow) =>
    `documents/${row.organization_id}/${hostedImportPrefix(row.id)}`;
  const filesOf = (row: ImportRow): ImportFiles =>
    hosted
      ? importFiles({ objects: hosted.objects, prefix: prefixOf(row) })
      : importFiles({ store });
  return {
    timeoutMs: IMPORT_TIMEOUT_MS,
    retryDelaySeconds: (attempt) => 30 * attempt,
    async handle(job, { db, signal }) {
      const importId = job.payload.import_id;
      if (!isStoredVersion(importId)) return;
      const row = (
        await db.query<ImportRow>(
          `select id, organization_id, requested_by, file_path, status
           from public.organization_imports where id = $1`,
          [importId],
        )
      ).rows[0];
      if (!row || !['queued', 'running'].includes(row.status)) return;
      let committed = false;
      let uploadVersion: string | undefined;
      try {
        await db.query(
          `update public.organization_imports set status = 'running', error = null where id = $1`,
          [row.id],
        );
        const upload = (
          await db.query<{ version: string | null }>(
            `select version from storage.objects where bucket_id = 'imports' and name = $1`,
            [row.file_path],
          )
        ).rows[0];
        if (!upload?.version || !isStoredVersion(upload.version)) {
          await refuse(db, row, 'The file to import has not been uploaded');
          return;
        }
        uploadVersion = upload.version;
        // What an earlier attempt left when its thread was stopped.
        await removeImportFiles(filesOf(row), row.id);
        const room = await roomFor(db, row);
        const result = await store.withLocalFiles([upload.version], ([zip]) =>
          options.cpu.run(
            'readImportZip',
            {
              importId: row.id,
              zip: zip!,
              dataDir: options.dataDir,
              objects: options.objects,
              ...(hosted ? { hostedPrefix: prefixOf(row) } : {}),
              limits: {
                maxEntries: options.settings.importMaxEntries,
                maxUnpackedBytes: options.settings.importMaxUnpackedBytes,
                maxRatio: options.settings.importMaxRatio,
                maxManifestBytes: options.settings.importMaxManifestBytes,
                maxDocuments: options.settings.importMaxDocuments,
              },
              room,
            },
            { lane: laneOf(db.scope), signal, maxWaitMs: IMPORT_TIMEOUT_MS },
          ),
        );
        if ('refused' in result) {
          await refuse(db, row, result.refused);
        } else {
          committed = await addDocuments(db, filesOf(row), row, result, signal, hosted !== null);
        }
        await removeUpload(db, store, row, uploadVersion, hosted !== null);
      } catch (error) {
        // Files of a committed import are its documents' now; when that is unknown (null),
        // they stay for the next attempt (which removes them first) or the sweep at start-up.
        const done = committed || (await importCommitted(db, row.id).catch(() => null));
        if (done === false) await removeImportFiles(filesOf(row), row.id);
        if (job.attempt >= job.maxAttempts) {
          if (done !== true) await refuse(db, row, 'The import could not be completed');
          await removeUpload(db, store, row, uploadVersion, hosted !== null);
        }
        throw error;
      }
    },
  };
}

/**
 * The bytes the organisation can still store, not counting the uploaded ZIP (it is removed once
 * the import has run), and the quota's refusal past them.
 */
async function roomFor(db: ScopedDatabase, row: ImportRow): Promise<ImportRoom> {
  const { rows } = await db.query<{ room: string; refusal: string }>(
    `select room, refusal from private.organization_storage_room($1, 'imports', $2)`,
    [row.organization_id, row.file_path],
  );
  const room = rows[0];
  if (!room) throw new Error('storage settings are missing');
  return { bytes: Number(room.room), refusal: room.refusal };
}

/** The extension of a document's name, for the name of its stored object. */
const extensionOf = (name: string) =>
  /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? 'bin';

/**
 * Adds the unpacked documents in one transaction as the importing admin; a refusal by the
 * database (the quota, a constraint) fails the import with its message and removes the files.
 * Returns whether the documents were added. On a hosted project (`hosted`) each object is
 * named by the import's prefix and its file's version, where Storage holds it already.
 */
async function addDocuments(
  db: ScopedDatabase,
  files: ImportFiles,
  row: ImportRow,
  { documents, access }: { documents: UnpackedDocument[]; access: ImportAccess },
  signal: AbortSignal,
  hosted: boolean,
): Promise<boolean> {
  const payload = documents.map((document) => ({
    object_name: hosted
      ? `${hostedImportPrefix(row.id)}${document.stored.version}`
      : `${Date.now()}-${randomBytes(6).toString('hex')}.${extensionOf(document.name)}`,
    version: document.stored.version,
    name: document.name,
    category: document.category,
    category_restricted: document.category_restricted,
    expiry_date: document.expiry_date,
    tags: document.tags,
    description: document.description,
    responsible_email: document.responsible_email,
    size: document.stored.size,
    metadata: {
      eTag: document.stored.eTag,
      size: document.stored.size,
      sha256: document.stored.sha256,
      mimetype: document.content_type,
      cacheControl: 'max-age=3600',
      lastModified: new Date().toISOString(),
      contentLength: document.stored.size,
      httpStatusCode: 200,
    },
  }));
  try {
    signal.throwIfAborted();
    await db.transaction(async (tx) => {
      await tx.query(`select set_config('request.jwt.claim.sub', $1, true)`, [
        row.requested_by ?? '',
      ]);
      await tx.query(`select private.finish_organization_import($1, $2::jsonb, $3::jsonb)`, [
        row.id,
        JSON.stringify(payload),
        JSON.stringify(access),
      ]);
    });
  } catch (error) {
    // A commit whose answer was lost (the database's worker stopped) happened all the same.
    if (await importCommitted(db, row.id)) return true;
    await removeImportFiles(files, row.id);
    if (isPostgresError(error) && /^(42501|23)/.test(error.code ?? '')) {
      await refuse(db, row, error.message);
      return false;
    }
    throw error;
  }
  return true;
}

/** Whether the import's documents were committed. */
async function importCommitted(db: ScopedDatabase, importId: string): Promise<boolean> {
  const { rows } = await db.query<{ status: string }>(
    `select status from public.organization_imports where id = $1`,
    [importId],
  );
  return rows[0]?.status === 'done';
}

/** Ends the import as failed with `reason`, in the history too. */
async function refuse(db: ScopedDatabase, row: ImportRow, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claim.sub', $1, true)`, [
      row.requested_by ?? '',
    ]);
    await tx.query(
      `update public.organization_imports
       set status = 'failed', error = $2, finished_at = now() where id = $1`,
      [row.id, reason],
    );
    await tx.query(
      `select private.log_activity($1, 'organization.import_failed', null, null,
         jsonb_build_object('reason', $2::text))`,
      [row.organization_id, reason],
    );
  });
}

/**
 * Removes the uploaded ZIP (row, then bytes): it is not kept once imported or refused. The row
 * of an imported ZIP went with the import's transaction; its bytes are `version`'s. On a hosted
 * project (`hosted`) the job `storage.remove-objects` removes it through Storage, row and bytes.
 */
async function removeUpload(
  db: ScopedDatabase,
  store: FileStore,
  row: ImportRow,
  version: string | undefined,
  hosted: boolean,
): Promise<void> {
  const name = row.file_path;
  if (hosted) {
    await db.query(
      `select private.enqueue_job('storage.remove-objects',
         jsonb_build_object('bucket', 'imports', 'names', jsonb_build_array($1::text)), $2)`,
      [name, row.organization_id],
    );
    return;
  }
  const removed = await db.transaction(async (tx) => {
    // Storage refuses a direct delete of its rows unless asked to, as hosted Storage does.
    await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
    const removed = await tx.query<{ version: string | null }>(
      `delete from storage.objects where bucket_id = 'imports' and name = $1 returning version`,
      [name],
    );
    return removed.rows[0]?.version;
  });
  for (const stored of new Set([removed, version])) {
    if (isStoredVersion(stored)) await store.remove(stored);
  }
}
