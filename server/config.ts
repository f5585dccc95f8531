import path from 'node:path';
import type { AuthSettings } from './auth/config.ts';
import { readAuthSettings } from './auth/config.ts';

/** Runtime settings of the embedded backend, read once from the environment. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** When set, PostgreSQL is used instead of PGlite. */
  databaseUrl: string | undefined;
  /** When set, overrides the secret generated and kept in `dataDir`. */
  jwtSecret: string | undefined;
  /** Directory of the built SPA. */
  distDir: string;
  /** Repository root: `supabase/migrations` and `supabase/config.toml` are found from here. */
  rootDir: string;
  /** Edge functions served at `/functions/v1` (`FUNCTIONS_DIR`, default `supabase/functions`). */
  functionsDir: string;
  /** Lifetime of access tokens in seconds (GoTrue's default is 3600). */
  jwtExpiry: number;
  /** Print one line per request. */
  logRequests: boolean;
  /** Rate limits and refresh-token rules of `/auth/v1` (`AUTH_*` variables). */
  auth: AuthSettings;
}

const rootDir = path.resolve(import.meta.dirname, '..');

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  }
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new Error('JWT_SECRET must be at least 32 characters long');
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(rootDir, '.data')),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret,
    distDir: path.resolve(env.DIST_DIR ?? path.join(rootDir, 'dist')),
    rootDir,
    functionsDir: path.resolve(env.FUNCTIONS_DIR ?? path.join(rootDir, 'supabase', 'functions')),
    jwtExpiry: 3600,
    logRequests: env.LOG_REQUESTS !== '0',
    auth: readAuthSettings(env),
  };
}
