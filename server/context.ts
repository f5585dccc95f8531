import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import type { ApiKeys } from './http/keys.ts';

/** What every service of the embedded backend is built from. */
export interface AppContext {
  db: Database;
  keys: ApiKeys;
  config: ServerConfig;
  /** Public URL of this server (no trailing slash), used where an absolute address is needed. */
  publicUrl: () => string;
}
