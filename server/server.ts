import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { createApp, serverFetch } from './app.ts';
import { backgroundWork } from './background-work.ts';
import type { ServerConfig } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database, ScopedDatabase } from './db/database.ts';
import { migrate, migrationFiles } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import type { FileTasks } from './file-tasks.ts';
import { ensurePrivateDir, makeDataDirPrivate, usePrivateUmask } from './files/private-modes.ts';
import type { ApiEnv } from './http/api-env.ts';
import type { ApiKeys } from './http/keys.ts';
import { deriveKeys, loadJwtSecret } from './http/keys.ts';
import type { Clock } from './jobs/clock.ts';
import { systemClock } from './jobs/clock.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { applyLinkSettings } from './links/settings-rows.ts';
import { Scheduler } from './jobs/scheduler.ts';
import { applyMailSettings } from './mail/settings-row.ts';
import { startTextExtraction } from './search/text-extraction-start.ts';
import { applyTrashRetention } from './trash/retention-setting.ts';
import { CpuPool } from './workers/cpu-pool.ts';
import { ProcessPool } from './workers/process-pool.ts';
import path from 'node:path';

export interface StartServerOptions {
  config: ServerConfig;
  /** An already open database (tests pass one made from a template); else one is opened. */
  db?: Database;
  /** Skip migrations (the database is known to be up to date). */
  skipMigrations?: boolean;
  /** The clock of background work and schedules (tests pass one they move). */
  clock?: Clock;
}

export interface RunningServer {
  url: string;
  config: ServerConfig;
  app: Hono<ApiEnv>;
  db: Database;
  keys: ApiKeys;
  /** The pool that runs CPU-heavy work (see `server/workers/`). */
  cpu: CpuPool;
  /** The processes that read members' files, each with a memory cap (`server/workers/`). */
  backgroundProcesses: ProcessPool<FileTasks>;
  /** Background jobs and schedules (see `server/jobs/`). */
  jobs: JobRunner;
  clock: Clock;
  close(): Promise<void>;
}

/** Opens the database, applies migrations, and listens. Resolves once requests are served. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  // Everything under the data directory is the owner's alone, whatever umask we were given.
  usePrivateUmask();
  await ensurePrivateDir(config.dataDir);
  const db = options.db ?? (await openDatabase(config));
  const refusal = roleRefusal(config, db);
  if (refusal) {
    if (!options.db) await db.close();
    throw new Error(refusal);
  }
  const migrations = path.join(config.supabaseDir, 'migrations');
  if (config.target === 'hosted') {
    // A hosted project is migrated by `supabase db push`, as its owner; the worker only checks.
    const missing = await missingHostedMigration(db.serverWork(), migrations);
    if (missing) {
      if (!options.db) await db.close();
      throw new Error(missing);
    }
    await leaveObjectRemovalToStorage(db.serverWork());
  } else if (!options.skipMigrations) {
    await migrate(db, migrations);
  }
  // Before any request: the functions that record mail tell their callers whether it is sent,
  // and take its recipients from the allowances the configuration sets.
  await applyMailSettings(db.serverWork(), config.mail);
  await applyTrashRetention(db.serverWork(), config.trash.retentionMs);
  await applyLinkSettings(db.serverWork(), config.sharing, config.requests);
  const keys = deriveKeys(await loadJwtSecret(config.dataDir, config.jwtSecret));
  // Files written before Steward kept them private (see server/files/private-modes.ts).
  await makeDataDirPrivate(config.dataDir);
  let url = '';
  const cpu = new CpuPool({ threads: config.workers.cpuThreads });
  // Background work waits as long as it must for its process (each job bounds its own time).
  const backgroundProcesses = new ProcessPool<FileTasks>({
    tasksModule: new URL('./file-tasks.ts', import.meta.url),
    processes: config.workers.backgroundProcesses,
    memoryLimitBytes: config.workers.backgroundMemoryLimit,
    niceIncrement: 10,
  });
  const clock = options.clock ?? systemClock;
  // The job kinds are built from the context they then run in, as `url` is set once listening.
  // eslint-disable-next-line prefer-const -- read through the getter below before it is set
  let jobs: JobRunner;
  const ctx: AppContext = {
    db,
    keys,
    config,
    cpu,
    backgroundProcesses,
    clock,
    get jobs() {
      return jobs;
    },
    publicUrl: () => url,
    siteUrl: () => config.auth.siteUrl ?? url,
  };
  const work = backgroundWork(ctx, backgroundProcesses);
  const scheduler = new Scheduler(db, clock, work.schedules);
  jobs = new JobRunner({
    db,
    clock,
    kinds: work.kinds,
    concurrency: config.workers.jobConcurrency,
    pollIntervalMs: config.workers.jobPollIntervalMs,
    beforeClaim: () => scheduler.runDue(),
  });
  let app: Hono<ApiEnv>;
  let server: ReturnType<typeof serve>;
  try {
    app = config.role === 'worker' ? workerApp() : await createApp(ctx);
    const fetch = config.role === 'worker' ? app.fetch : serverFetch(ctx, app);
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const listening = serve({ fetch, port: config.port, hostname: config.host }, () =>
        resolve(listening),
      );
      listening.once('error', reject);
    });
  } catch (error) {
    // Its threads would otherwise keep the process alive after a failed start.
    await Promise.all([cpu.close(), backgroundProcesses.close()]);
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  url = `http://${host}:${address.port}`;
  // In the background, a batch at a time: a large library is looked over while the server
  // already answers; the runner reads what is queued from its next poll on.
  const stopping = new AbortController();
  const runsWork = config.role !== 'api';
  const extractionStarted = runsWork
    ? startTextExtraction(db.serverWork(), stopping.signal).catch((error: unknown) => {
        if (!stopping.signal.aborted) {
          console.error('search: could not start text extraction:', error);
        }
      })
    : Promise.resolve();
  if (runsWork) jobs.start();

  return {
    url,
    config,
    app,
    db,
    keys,
    cpu,
    backgroundProcesses,
    jobs,
    clock,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would otherwise hold close() open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      stopping.abort();
      await extractionStarted;
      await jobs.stop();
      await Promise.all([cpu.close(), backgroundProcesses.close()]);
      await db.close();
    },
  };
}

/**
 * Why this process cannot take its `STEWARD_ROLE`, or null. A process that does only part of
 * the work leaves the rest to others, which must share its database and its files: PostgreSQL
 * (PGlite is one process's own) and a bucket (each process has its own disk, whose start-up
 * sweep assumes no other writer). A worker's e-mails link to the app, which it does not serve.
 */
function roleRefusal(config: ServerConfig, db: Database): string | null {
  if (config.target === 'hosted') {
    const hosted = 'STEWARD_TARGET=hosted';
    if (config.role !== 'worker') {
      return `${hosted} runs the background work of a hosted Supabase project, whose own services answer the app: set STEWARD_ROLE=worker.`;
    }
    const { objects } = config.storage;
    if (db.kind === 'pglite' || objects.backend !== 's3' || !objects.endpoint) {
      return `${hosted} works on the project's database and Storage: set DATABASE_URL to its connection string, and OBJECT_STORAGE_BACKEND=s3 with OBJECT_STORAGE_ENDPOINT at its Storage's S3 endpoint (https://<ref>.supabase.co/storage/v1/s3) and its S3 access keys.`;
    }
  }
  if (config.role === 'all') return null;
  const role = `STEWARD_ROLE=${config.role}`;
  if (db.kind === 'pglite') {
    return `${role} shares the work with other processes: it needs PostgreSQL (DATABASE_URL), which they share; the embedded database serves one process only.`;
  }
  if (config.storage.objects.backend !== 's3') {
    return `${role} shares the work with other processes: it needs the stored files in a bucket they share ([object_storage] backend = "s3", OBJECT_STORAGE_BACKEND).`;
  }
  if (config.role === 'worker' && !config.auth.siteUrl) {
    return `${role} sends e-mails whose links open the app, which it does not serve: set AUTH_SITE_URL to the address people open Steward at.`;
  }
  return null;
}

/**
 * Why a hosted project's database is not ready for this worker (a migration of
 * `supabase/migrations` it has not recorded), or null.
 */
async function missingHostedMigration(db: ScopedDatabase, dir: string): Promise<string | null> {
  const known = (await migrationFiles(dir)).map((file) => file.version);
  let rows: { version: string }[];
  try {
    ({ rows } = await db.query<{ version: string }>(
      `select version from supabase_migrations.schema_migrations where version = any($1::text[])`,
      [known],
    ));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== '42501' && code !== '3F000' && code !== '42P01') throw error;
    return `The hosted project's migration history (supabase_migrations.schema_migrations) cannot be read: connect as postgres, the role \`supabase db push\` applies them as, and apply them before starting the worker.`;
  }
  const recorded = new Set(rows.map((row) => row.version));
  const missing = known.filter((version) => !recorded.has(version));
  if (missing.length === 0) return null;
  return `The hosted project lacks migration ${missing.at(-1)} of supabase/migrations (${missing.length} missing): apply them with \`supabase db push\` before starting the worker.`;
}

/**
 * Marks the project as one whose Storage removes objects (row and bytes) for this worker:
 * documents deleted for ever leave their files to the job `storage.remove-objects` (migration
 * 2026112800410000), since a row deleted in SQL would leave its bytes in Storage's backend.
 */
async function leaveObjectRemovalToStorage(db: ScopedDatabase): Promise<void> {
  await db.query(
    `update private.storage_settings set objects_removed_through_storage = true, updated_at = now()
      where not objects_removed_through_storage`,
  );
}

/** A worker's HTTP answer: it serves no API, so a load balancer sends it no traffic. */
function workerApp(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.all('*', (c) =>
    c.json({ message: 'This process runs background work only (STEWARD_ROLE=worker).' }, 503),
  );
  return app;
}
