import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import type { ApiKeys } from './http/keys.ts';
import type { Clock } from './jobs/clock.ts';
import type { JobRunner } from './jobs/job-runner.ts';
import type { CpuPool } from './workers/cpu-pool.ts';
import type { renderOfficePreview } from './workers/office-preview-tasks.ts';
import type { ProcessPool } from './workers/process-pool.ts';

/** What every service of the embedded backend is built from. */
export interface AppContext {
  db: Database;
  keys: ApiKeys;
  config: ServerConfig;
  /** Worker threads for CPU-heavy work (password hashing…), off the thread that answers HTTP. */
  cpu: CpuPool;
  /**
   * The capped background processes that read members' files, for the work a request waits for
   * (a Word or Excel preview); jobs get theirs from background-work.ts.
   */
  backgroundProcesses: ProcessPool<{ renderOfficePreview: typeof renderOfficePreview }>;
  /** The time background work and schedules read (tests move it by hand). */
  clock: Clock;
  /** Background jobs (server/jobs/): `wake()` after adding one, so it starts at once. */
  jobs: JobRunner;
  /** Public URL of this server (no trailing slash), used where an absolute address is needed. */
  publicUrl: () => string;
  /**
   * The app's address for links people open (e-mails, calendar feeds, redirects): `[auth]
   * site_url` when configured, else the address the server listens on. No trailing slash.
   */
  siteUrl: () => string;
}
