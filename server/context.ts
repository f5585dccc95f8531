import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import type { ApiKeys } from './http/keys.ts';
import type { CpuPool } from './workers/cpu-pool.ts';

/** What every service of the embedded backend is built from. */
export interface AppContext {
  db: Database;
  keys: ApiKeys;
  config: ServerConfig;
  /** Worker threads for CPU-heavy work (password hashing…), off the thread that answers HTTP. */
  cpu: CpuPool;
  /** Public URL of this server (no trailing slash), used where an absolute address is needed. */
  publicUrl: () => string;
}
