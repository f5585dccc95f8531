import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ScopedDatabase } from '../db/database.ts';
import { laneOf } from '../db/request-scope.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import { type FileStore, isStoredVersion } from '../storage/file-store.ts';
import type { HostedStorage } from '../storage/hosted-storage.ts';
import { TaskMemoryLimitError, type ProcessPool } from '../workers/process-pool.ts';
import type { convertLogo } from './convert-logo-task.ts';

/** The job kind `convert_logo` adds (supabase/migrations/2026112800330001_logo_images.sql). */
export const CONVERT_LOGO_KIND = 'branding.convert-logo';

/** A converted logo is a few hundred kilobytes; anything past this is not one. */
const MAX_LOGO_BYTES = 4 * 1024 * 1024;

/** A refusal the admin reads (`logo_conversion`): the job fails with it, once. */
class LogoRefused extends Error {}

/**
 * Turns an organisation's uploaded image (`branding/{organization_id}/logo-source`) into its
 * logo (`logo.png`, which replaces `logo.svg`), in a background process: decoding an image
 * members uploaded takes memory no thread can bound (server/workers/README.md). The upload is
 * removed either way. A refused image fails the job with the reason, which the admin is shown.
 *
 * On a hosted project (`hostedStorage`) the logo is uploaded through Storage's S3 protocol as
 * `{organization_id}/logo.png` of the branding bucket (Storage replaces an earlier one, row and
 * bytes, and records the row with its own version, which the job's transaction keeps), and the
 * SVG logo and the upload are deleted through Storage too, row and bytes: a row deleted in SQL
 * would leave its bytes in Storage's backend.
 */
export function convertLogoJob(options: {
  pool: ProcessPool<{ convertLogo: typeof convertLogo }>;
  /** Where the stored files are; on a bucket the image is read from a local copy. */
  store: FileStore;
  dataDir: string;
  /** A hosted project's Storage, when the worker serves one. */
  hostedStorage?: HostedStorage | null;
}): JobKind {
  const { store } = options;
  const hosted = options.hostedStorage ?? null;
  const workDir = path.join(options.dataDir, 'tmp', 'logos');

  async function removeObjects(db: ScopedDatabase, names: string[]): Promise<void> {
    // Through Storage, row and bytes; a row it left (none, hosted) goes below as embedded.
    if (hosted) for (const name of names) await hosted.removeObject('branding', name);
    const removed = await db.transaction(async (tx) => {
      // Storage refuses a direct delete of its rows unless asked to, as hosted Storage does.
      await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
      const { rows } = await tx.query<{ version: string | null }>(
        `delete from storage.objects where bucket_id = 'branding' and name = any($1::text[])
         returning version`,
        [names],
      );
      return rows.map((row) => row.version);
    });
    for (const version of removed) {
      if (isStoredVersion(version)) await store.remove(version);
    }
  }

  return {
    // A 25-million-pixel image takes a few seconds; a process that hangs is not waited for.
    timeoutMs: 60_000,
    async handle(job, { db, signal }) {
      const { organizationId } = job;
      if (!organizationId) return;
      const sourceName = `${organizationId}/logo-source`;
      const { rows } = await db.query<{ version: string | null; owner: string | null }>(
        `select version, owner::text as owner from storage.objects
         where bucket_id = 'branding' and name = $1`,
        [sourceName],
      );
      const source = rows[0];
      if (!source) return;
      await mkdir(workDir, { recursive: true });
      const target = path.join(workDir, `${randomUUID()}.png`);
      try {
        if (!isStoredVersion(source.version)) throw new LogoRefused('The image is missing');
        let result;
        try {
          result = await store.withLocalFiles([source.version], ([local]) =>
            options.pool.run(
              'convertLogo',
              { source: local!, target },
              { lane: laneOf(db.scope), signal },
            ),
          );
        } catch (error) {
          if (error instanceof TaskMemoryLimitError) {
            throw new LogoRefused('The image is too large to be read');
          }
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            throw new LogoRefused('The image is missing');
          }
          throw error;
        }
        if (!result.ok) throw new LogoRefused(result.reason);
        const logoName = `${organizationId}/logo.png`;
        const stored = hosted
          ? {
              version: randomUUID(),
              ...(await hosted.objects.write(
                'branding',
                logoName,
                createReadStream(target),
                MAX_LOGO_BYTES,
                'image/png',
              )),
            }
          : await store.write(createReadStream(target), MAX_LOGO_BYTES);
        const replaced = await db.transaction(async (tx) => {
          const { rows: earlier } = await tx.query<{ version: string | null }>(
            `select version from storage.objects where bucket_id = 'branding' and name = $1
             for update`,
            [logoName],
          );
          // The history names the admin who uploaded the image.
          await tx.query(`select set_config('request.jwt.claim.sub', $1, true)`, [
            source.owner ?? '',
          ]);
          await tx.query(
            `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
             values ('branding', $1, $2::uuid, $2::text, $3, $4::jsonb)
             on conflict (bucket_id, name) do update set version = ${
               // Hosted Storage recorded the row with its own version, which names its bytes.
               hosted ? 'storage.objects.version' : 'excluded.version'
             },
               metadata = ${hosted ? 'storage.objects.metadata || ' : ''}excluded.metadata,
               owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now()`,
            [
              logoName,
              source.owner,
              stored.version,
              JSON.stringify({
                eTag: stored.eTag,
                size: stored.size,
                sha256: stored.sha256,
                mimetype: 'image/png',
                cacheControl: 'max-age=0',
                lastModified: new Date().toISOString(),
                contentLength: stored.size,
                httpStatusCode: 200,
              }),
            ],
          );
          return earlier[0]?.version ?? null;
        });
        // An earlier PNG logo's bytes go with it (nothing else names that version); hosted
        // Storage replaced them itself.
        if (!hosted && isStoredVersion(replaced) && replaced !== stored.version) {
          await store.remove(replaced);
        }
        // The new logo replaces an SVG one; the upload has served.
        await removeObjects(db, [`${organizationId}/logo.svg`, sourceName]);
      } catch (error) {
        if (error instanceof LogoRefused) await removeObjects(db, [sourceName]);
        throw error;
      } finally {
        await rm(target, { force: true });
      }
    },
  };
}
