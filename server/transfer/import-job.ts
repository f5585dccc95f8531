import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import { FileStore, isStoredVersion } from '../storage/file-store.ts';
import type { ProcessPool } from '../workers/process-pool.ts';
import type { UnpackedDocument } from './import-zip-task.ts';
import type { TransferSettings } from '../config/transfer-settings.ts';

/** The job kind that imports an uploaded export ZIP (started by `start_organization_import`). */
export const IMPORT_KIND = 'organization.import';

const IMPORT_TIMEOUT_MS = 30 * 60_000;

export interface ImportJobOptions {
  /** The background processes: the ZIP is read in one of them, under its memory cap. */
  cpu: ProcessPool;
  dataDir: string;
  settings: TransferSettings;
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
 * documents' files into the file store (import-zip-task.ts); then one
 * transaction, run as the admin who started the import, adds their storage rows and documents
 * (`private.finish_organization_import`), within the organisation's quota. A refused ZIP (not a
 * ZIP, not a Steward export, unsafe names, a ZIP bomb, over the quota) ends the import as
 * `failed` with its reason and nothing written; files unpacked for a transaction that did not
 * commit are removed (after a crash, by the store's sweep at start-up). The uploaded ZIP is
 * removed once the import has run.
 */
export function importJob(options: ImportJobOptions): JobKind {
  const store = new FileStore(options.dataDir);
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
        const result = await options.cpu.run(
          'readImportZip',
          {
            zip: store.pathOf(upload.version),
            dataDir: options.dataDir,
            limits: {
              maxEntries: options.settings.importMaxEntries,
              maxUnpackedBytes: options.settings.importMaxUnpackedBytes,
              maxRatio: options.settings.importMaxRatio,
            },
          },
          { signal, maxWaitMs: IMPORT_TIMEOUT_MS },
        );
        if ('refused' in result) {
          await refuse(db, row, result.refused);
        } else {
          await addDocuments(db, store, row, result.documents, signal);
        }
        await removeUpload(db, store, row.file_path);
      } catch (error) {
        if (job.attempt >= job.maxAttempts) {
          await refuse(db, row, 'The import could not be completed');
          await removeUpload(db, store, row.file_path);
        }
        throw error;
      }
    },
  };
}

/** The extension of a document's name, for the name of its stored object. */
const extensionOf = (name: string) =>
  /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? 'bin';

/**
 * Adds the unpacked documents in one transaction as the importing admin; a refusal by the
 * database (the quota, a constraint) fails the import with its message. Either way, files no
 * committed row holds are removed.
 */
async function addDocuments(
  db: Database,
  store: FileStore,
  row: ImportRow,
  documents: UnpackedDocument[],
  signal: AbortSignal,
): Promise<void> {
  const payload = documents.map((document) => ({
    object_name: `${Date.now()}-${randomBytes(6).toString('hex')}.${extensionOf(document.name)}`,
    version: document.stored.version,
    name: document.name,
    category: document.category,
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
      await tx.query(`select private.finish_organization_import($1, $2::jsonb)`, [
        row.id,
        JSON.stringify(payload),
      ]);
    });
  } catch (error) {
    for (const document of documents) await store.remove(document.stored.version);
    if (isPostgresError(error) && /^(42501|23)/.test(error.code ?? '')) {
      await refuse(db, row, error.message);
      return;
    }
    throw error;
  }
}

/** Ends the import as failed with `reason`, in the history too. */
async function refuse(db: Database, row: ImportRow, reason: string): Promise<void> {
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

/** Removes the uploaded ZIP (row, then bytes): it is not kept once imported or refused. */
async function removeUpload(db: Database, store: FileStore, name: string): Promise<void> {
  const version = await db.transaction(async (tx) => {
    // Storage refuses a direct delete of its rows unless asked to, as hosted Storage does.
    await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
    const removed = await tx.query<{ version: string | null }>(
      `delete from storage.objects where bucket_id = 'imports' and name = $1 returning version`,
      [name],
    );
    return removed.rows[0]?.version;
  });
  if (version && isStoredVersion(version)) await store.remove(version);
}
