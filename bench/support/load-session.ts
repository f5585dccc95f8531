import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WriteLedger } from './load-ledger.ts';
import { LoadMetrics } from './load-metrics.ts';
import { runUsers, type LoadContext } from './load-user.ts';
import {
  buildOrganizations,
  seedDocuments,
  type LoadOrganization,
  type LoadUser,
  type WorldOptions,
} from './load-world.ts';
import { freshPostgres } from './postgres.ts';
import { startSteward, type StewardProcess } from './steward-process.ts';

/** A server on a new data directory with the load test's organisations, users and documents. */
export interface LoadSession {
  dataDir: string;
  jwtSecret: string;
  server: StewardProcess;
  organizations: LoadOrganization[];
  ledger: WriteLedger;
  runId: string;
  /** Seconds spent starting the server, making the people, uploading the first documents. */
  setup: { server: number; people: number; documents: number };
  world: WorldOptions;
  /** The new PostgreSQL database the server runs on, when not on PGlite. */
  postgres?: { url: string; drop(): Promise<void> };
}

export const DEFAULT_WORLD = { organizations: 5, usersPerOrganization: 10, documentsPerUser: 4 };

/**
 * Starts `tsx server/index.ts` on a new data directory and seeds it through the API: on PGlite,
 * or on a new database of the PostgreSQL server at `postgresAdminUrl` (files stay in the data
 * directory either way).
 */
export async function startLoadSession(
  world: Omit<WorldOptions, 'runId'> = DEFAULT_WORLD,
  postgresAdminUrl?: string,
): Promise<LoadSession> {
  const seconds = (since: number) => (performance.now() - since) / 1000;
  let started = performance.now();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-load-'));
  const jwtSecret = randomBytes(32).toString('base64url');
  const postgres = postgresAdminUrl ? await freshPostgres(postgresAdminUrl) : undefined;
  // The set-up signs up every person of the world from this one address, as fast as it can;
  // GoTrue's per-address sign-up limit is not what this benchmark measures.
  const server = await startSteward({
    dataDir,
    jwtSecret,
    env: {
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
  }).catch(async (error: unknown) => {
    await postgres?.drop().catch(() => undefined);
    throw error;
  });
  const setup = { server: seconds(started), people: 0, documents: 0 };
  const runId = randomBytes(4).toString('hex');
  const ledger = new WriteLedger();
  try {
    const options = { ...world, runId };
    started = performance.now();
    const organizations = await buildOrganizations(server.url, server.keys.anonKey, options);
    setup.people = seconds(started);
    started = performance.now();
    await seedDocuments(organizations, options, ledger);
    setup.documents = seconds(started);
    return {
      dataDir,
      jwtSecret,
      server,
      organizations,
      ledger,
      runId,
      setup,
      world: options,
      ...(postgres ? { postgres } : {}),
    };
  } catch (error) {
    await server.kill('SIGKILL');
    await postgres?.drop().catch(() => undefined);
    throw error;
  }
}

/**
 * Every user acts until `seconds` have passed; with `killAfterSeconds`, `onKill` runs then
 * (the fault test kills the server) and users stop starting new actions.
 */
export async function runLoad(
  session: Pick<LoadSession, 'ledger' | 'organizations' | 'runId'>,
  options: {
    seconds: number;
    /** Only these users act (default: all). */
    users?: LoadUser[];
    killAfterSeconds?: number;
    onKill?: () => Promise<void>;
  },
): Promise<LoadMetrics> {
  const metrics = new LoadMetrics();
  const ctx: LoadContext = {
    metrics,
    ledger: session.ledger,
    organizations: session.organizations,
    users: options.users ?? session.organizations.flatMap((organization) => organization.users),
    stop: { now: false },
    deadline: Date.now() + options.seconds * 1000,
    runId: session.runId,
  };
  let killed: Promise<void> | undefined;
  const timer =
    options.killAfterSeconds === undefined
      ? undefined
      : setTimeout(() => {
          metrics.killedAt = performance.now();
          ctx.stop.now = true;
          killed = options.onKill?.();
        }, options.killAfterSeconds * 1000);
  metrics.startedAt = performance.now();
  await runUsers(ctx);
  metrics.endedAt = performance.now();
  clearTimeout(timer);
  await killed;
  return metrics;
}
