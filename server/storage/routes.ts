import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { errorFormat } from '../http/api-error.ts';
import { bucketRoutes } from './bucket-routes.ts';
import { storageErrorFormat, storageErrors } from './errors.ts';
import { openFileStore, openResumableStore } from './open-file-store.ts';
import { objectReadRoutes } from './object-read-routes.ts';
import { objectWriteRoutes } from './object-write-routes.ts';
import { applyStorageQuota } from './quota-setting.ts';
import { referencedVersions } from './queries.ts';
import { resumableUploadRoutes } from './resumable-routes.ts';
import type { SharedStorage, StorageServices } from './services.ts';
import { storageWith } from './services.ts';
import { urlSigningKey } from './signed-url.ts';

/**
 * Removes files left by a previous run that crashed mid-write. Resolves (never rejects) when
 * done; a failure is logged and only means the orphans stay until the next start.
 */
async function sweepOrphans(services: StorageServices): Promise<void> {
  try {
    const removed = await services.store.sweep((versions) =>
      referencedVersions(services.db, versions),
    );
    if (removed > 0) console.log(`storage: removed ${removed} unreferenced file(s)`);
  } catch (error) {
    console.error('storage: start-up sweep of unreferenced files failed:', error);
  }
}

/** The storage services of one server, and when they take writes. */
export interface PreparedStorage {
  services: SharedStorage;
  /**
   * Resolves once the start-up sweep is done and the quota applied: every writer waits for it,
   * so that the sweep never races a write of this process, and no upload is checked against an
   * old quota.
   */
  ready: Promise<void>;
}

const prepared = new WeakMap<AppContext, PreparedStorage>();

/**
 * The storage services of a server, made once: the Storage API below and Steward's other
 * writers of stored files (uploads through document request links, server/requests/) share the
 * file store and its start-up sweep.
 */
export function preparedStorage(ctx: AppContext): PreparedStorage {
  let storage = prepared.get(ctx);
  if (!storage) {
    const services: SharedStorage = {
      store: openFileStore(ctx.config.dataDir, ctx.config.storage.objects),
      urlSigningKey: urlSigningKey(ctx.keys.jwtSecret),
      fileSizeLimit: ctx.config.storage.fileSizeLimit,
      maxSignedUrlExpirySeconds: ctx.config.storage.maxSignedUrlExpirySeconds,
    };
    const ready = Promise.all([
      // The server's own work, at start-up.
      sweepOrphans(storageWith(services, ctx.db.serverWork())),
      applyStorageQuota(ctx.db.serverWork(), ctx.config.storage.quotaPerOrganization).catch(
        (error: unknown) => {
          console.error('storage: could not apply [storage] quota_per_organization:', error);
        },
      ),
    ]).then(() => undefined);
    storage = { services, ready };
    prepared.set(ctx, storage);
  }
  return storage;
}

/**
 * The Supabase Storage API at `/storage/v1` (supabase-compat.md §4): objects in
 * `storage.objects`, bytes under `{DATA_DIR}/storage`, access decided by row-level security.
 */
export function createStorageApp(ctx: AppContext): Hono<ApiEnv> {
  const { services, ready: swept } = preparedStorage(ctx);

  const app = new Hono<ApiEnv>();
  app.use('*', errorFormat(storageErrorFormat));
  app.use('*', async (_c, next) => {
    await swept;
    await next();
  });
  // Reads first: their static paths (`list`, `sign`…) must win over `/object/:bucket/*`.
  app.route('/', objectReadRoutes(services));
  app.route('/', objectWriteRoutes(services));
  app.route('/', bucketRoutes(services));
  app.route(
    '/',
    resumableUploadRoutes(
      services,
      openResumableStore(ctx.config.dataDir, ctx.config.storage.objects),
    ),
  );
  // Without this, unknown storage paths would fall through to the SPA.
  app.all('*', (c) => storageErrors.routeNotFound(c.req.method, c.req.path).toResponse());
  return app;
}
