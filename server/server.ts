import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { createApp } from './app.ts';
import { backgroundWork } from './background-work.ts';
import type { ServerConfig } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
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
  if (!options.skipMigrations) {
    await migrate(db, path.join(config.supabaseDir, 'migrations'));
  }
  // Before any request: the functions that record mail tell their callers whether it is sent,
  // and take its recipients from the allowances the configuration sets.
  await applyMailSettings(db, config.mail);
  await applyTrashRetention(db, config.trash.retentionMs);
  await applyLinkSettings(db, config.sharing, config.requests);
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
    app = await createApp(ctx);
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const listening = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
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
  const extractionStarted = startTextExtraction(db, stopping.signal).catch((error: unknown) => {
    if (!stopping.signal.aborted) console.error('search: could not start text extraction:', error);
  });
  jobs.start();

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
