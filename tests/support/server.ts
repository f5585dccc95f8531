import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { readConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open.ts';
import type { Clock } from '../../server/jobs/clock.ts';
import { schemaCacheFor } from '../../server/rest/schema-cache.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { freshTestBucket, objectStorageEnv, testingOnS3 } from './s3.ts';
import { scratchDir } from './scratch.ts';
import {
  copyPgliteTemplate,
  freshPostgresDatabase,
  pgliteTemplateSeed,
  postgresAdminUrl,
  postgresTemplateSeed,
  type SchemaKind,
} from './template.ts';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** The PostgreSQL database of this server, when TEST_DATABASE_URL is set. */
  databaseUrl?: string;
  /** A supabase-js client with the anon key, as a browser would have. */
  anon(): SupabaseClient;
  /** A supabase-js client with the service-role key (bypasses RLS): for test set-up only. */
  service(): SupabaseClient;
}

/** A supabase-js client for Node: no stored session, no timers, ws for the realtime client. */
export function nodeClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

/**
 * Starts the embedded backend on a random port over a fresh, fully migrated database: PGlite
 * loaded from the template, or a new PostgreSQL database when TEST_DATABASE_URL is set.
 */
export interface TestServerOptions {
  /** `platform` for tests of the services themselves, `app` (default) for the product schema. */
  schema?: SchemaKind;
  env?: Record<string, string>;
  /** The clock of the server's background work (default: the system clock). */
  clock?: Clock;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const schema = options.schema ?? 'app';
  const dataDir = await scratchDir('steward-test-');
  const config = {
    ...readConfig({
      // bcrypt at GoTrue's cost of 10 takes ~100 ms of CPU per hash in JavaScript; the hashing
      // itself is not under test here, and the tests sign up hundreds of users.
      AUTH_BCRYPT_COST: '4',
      // Every test request comes from 127.0.0.1: GoTrue's per-address limits (30 sign-ups and
      // sign-ins, 150 refreshes in 5 minutes) and the budget of failed sign-ins per address
      // would refuse most of a file. Tests of those limits set their own values.
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000000',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000000',
      AUTH_GUESSES_PER_ADDRESS: '1000000',
      // Tests sign up users and use them at once; tests of e-mail confirmation turn it on.
      AUTH_EMAIL_ENABLE_CONFIRMATIONS: 'false',
      // TEST_OBJECT_STORAGE=s3: stored files in a bucket of their own on the run's S3 server.
      ...(testingOnS3() ? objectStorageEnv(await freshTestBucket()) : {}),
      ...options.env,
      DATA_DIR: dataDir,
    }),
    port: 0,
    host: '127.0.0.1',
    logRequests: false,
  };
  const adminUrl = postgresAdminUrl();
  let db: Database;
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  if (adminUrl) {
    const fresh = await freshPostgresDatabase(adminUrl, { schema });
    db = await openDatabase({ ...config, databaseUrl: fresh.url });
    schemaCacheFor(db).seed(await postgresTemplateSeed(db.serverWork(), schema));
    dropDatabase = fresh.drop;
    databaseUrl = fresh.url;
  } else {
    // The server's own embedded database (PGlite in a worker), a copy of the template's.
    await copyPgliteTemplate(schema, path.join(dataDir, 'db'));
    db = await openDatabase(config);
    schemaCacheFor(db).seed(await pgliteTemplateSeed(schema));
  }
  const server = await startServer({
    config,
    db,
    skipMigrations: true,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // One service-role client per server: it holds no session (persistSession and
  // autoRefreshToken are off, and nothing signs it in), so every caller may share it; a new one
  // per call cost the security matrix 0.5 s of CPU a part in building thousands of clients.
  // `anon()` stays new per call: its callers sign in on it.
  let service: SupabaseClient | undefined;
  return {
    ...server,
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    anon: () => nodeClient(server.url, server.keys.anonKey),
    service: () => (service ??= nodeClient(server.url, server.keys.serviceRoleKey)),
    async close() {
      await server.close();
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs up a new user through the API and returns a client signed in as them. */
export async function signedInClient(
  server: TestServer,
  email: string,
  password = 'correct horse battery staple',
): Promise<{ client: SupabaseClient; userId: string }> {
  const client = server.anon();
  const { data, error } = await client.auth.signUp({ email, password });
  if (error) throw error;
  if (!data.user || !data.session) throw new Error('sign-up returned no session');
  return { client, userId: data.user.id };
}
