import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { deriveKeys, type ApiKeys } from '../../server/http/keys.ts';
import { serverNodeFlags } from '../../server/node-flags.ts';
import { objectStorageEnv, startLocalS3Server, type LocalS3Server } from '../support/s3.ts';
import { scratchDir } from '../support/scratch.ts';
import { freshPostgresDatabase, postgresAdminUrl, rootDir } from '../support/template.ts';

/*
 * Steward as a hosting provider runs it on several machines (issue 26, docs/several-processes.md):
 * PostgreSQL, an S3-compatible bucket (s3rver), two `STEWARD_ROLE=api` processes behind
 * Debian's haproxy, and one `STEWARD_ROLE=worker` process, each a real `node server/index.ts`
 * started here on free ports, so that a test can kill any of them with SIGKILL.
 */

/** Debian's haproxy (`.ci/run` installs it). */
const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';
/** Sign-ups and sign-ins per client address in five minutes, across the processes. */
export const SIGN_IN_SIGN_UPS = 20;
/**
 * The balancer's own address, which its requests to the processes come from and which the
 * processes trust (`STEWARD_TRUSTED_PROXIES`) to name the client in `X-Forwarded-For`. Not
 * 127.0.0.1, the tests' own address as clients, so that a client's address is never trusted.
 */
export const BALANCER_ADDRESS = '127.0.0.2';

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A child process, with what it printed (for the test's failure messages). */
export interface Started {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function startChild(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd: rootDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output, exited };
}

/** Resolves once `started` printed `ready`; rejects if it exits or takes over `ms`. */
async function waitForOutput(started: Started, ready: RegExp, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!ready.test(started.output.join(''))) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) {
      throw new Error(`${what} exited: ${started.output.join('')}`);
    }
    if (Date.now() > deadline) throw new Error(`${what} did not start: ${started.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface StewardProcess extends Started {
  role: 'api' | 'worker' | 'all';
  port: number;
  url: string;
}

export interface Cluster {
  /** The balancer's address: what clients use. */
  url: string;
  keys: ApiKeys;
  databaseUrl: string;
  apis: StewardProcess[];
  worker: StewardProcess;
  /** Starts another worker (after the first was killed). */
  startWorker(): Promise<StewardProcess>;
  /** Starts an API process again on the port of `apis[index]` (after it was killed). */
  restartApi(index: number): Promise<StewardProcess>;
  close(): Promise<void>;
}

function haproxyConfig(ports: { main: number; apis: number[] }): string {
  const servers = ports.apis
    .map((port, i) => `  server api${i + 1} 127.0.0.1:${port} check inter 1s fall 3 rise 1`)
    .join('\n');
  return `global
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  # Generous: on a loaded machine a slow answer is not a dead process (a refused connection is
  # retried on another process at once, below).
  timeout check 5s
  # A request whose process refuses the connection (it was killed) goes to another one.
  retries 3
  option redispatch 1
  # The processes see the balancer's address as the peer; the client's is appended to
  # X-Forwarded-For, which they trust from this address only (STEWARD_TRUSTED_PROXIES).
  option forwardfor
  source ${BALANCER_ADDRESS}

frontend main
  bind 127.0.0.1:${ports.main}
  default_backend api

backend api
  balance roundrobin
  option httpchk GET /auth/v1/health
  # No sticky rule: resumable uploads are in the bucket (@tus/s3-store), and any process
  # continues any of them (docs/several-processes.md).
${servers}
`;
}

export interface ClusterOptions {
  /** API processes behind the balancer (default 2), with a worker beside them. */
  apiProcesses?: number;
  /** Where the stored files are (default `s3`); `disk` is one process's own (`allInOne`). */
  files?: 's3' | 'disk';
  /** A single `STEWARD_ROLE=all` process serves the API and runs the work, behind the balancer. */
  allInOne?: boolean;
  /** More settings for every process (e.g. a benchmark's higher sign-up limit). */
  env?: Record<string, string>;
}

/** Starts s3rver, a fresh PostgreSQL database, the processes and the balancer. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const onDisk = options.files === 'disk';
  const allInOne = onDisk || options.allInOne === true;
  const apiCount = allInOne ? 1 : (options.apiProcesses ?? 2);
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    throw new Error('The cluster test needs PostgreSQL: set TEST_DATABASE_URL (see .ci/run)');
  }
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    let files: Record<string, string> = {};
    if (!onDisk) {
      const s3: LocalS3Server = await startLocalS3Server();
      cleanups.push(() => s3.close());
      files = objectStorageEnv(await s3.freshBucket());
    }
    const database = await freshPostgresDatabase(adminUrl, { schema: 'app' });
    cleanups.push(() => database.drop());

    const ports = {
      main: await freePort(),
      apis: await Promise.all(Array.from({ length: apiCount }, () => freePort())),
    };
    const url = `http://127.0.0.1:${ports.main}`;
    const jwtSecret = randomBytes(32).toString('hex');
    const env = (
      role: StewardProcess['role'],
      port: number,
      dataDir: string,
    ): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      ...files,
      DATABASE_URL: database.url,
      JWT_SECRET: jwtSecret,
      STEWARD_ROLE: role,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      AUTH_SITE_URL: url,
      AUTH_EMAIL_ENABLE_CONFIRMATIONS: 'false',
      AUTH_BCRYPT_COST: '4',
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: String(SIGN_IN_SIGN_UPS),
      STEWARD_TRUSTED_PROXIES: `${BALANCER_ADDRESS}/32`,
      JOB_POLL_INTERVAL: '200ms',
      ...options.env,
    });
    const processes: StewardProcess[] = [];
    cleanups.push(async () => {
      for (const started of processes) {
        if (started.child.exitCode === null && started.child.signalCode === null) {
          started.child.kill('SIGKILL');
          await started.exited;
        }
      }
    });
    const startSteward = async (role: StewardProcess['role'], port: number) => {
      const dataDir = await scratchDir(`steward-cluster-${role}-`);
      const started = startChild(
        process.execPath,
        [...serverNodeFlags, '--import', 'tsx', path.join('server', 'index.ts')],
        env(role, port, dataDir),
      );
      const steward = { ...started, role, port, url: `http://127.0.0.1:${port}` };
      processes.push(steward);
      await waitForOutput(started, /Steward is running at/, `the ${role} process on ${port}`);
      return steward;
    };

    // The first start migrates the database; the others find it done.
    const apis: StewardProcess[] = [];
    for (const port of ports.apis) apis.push(await startSteward(allInOne ? 'all' : 'api', port));
    const worker = allInOne ? apis[0]! : await startSteward('worker', await freePort());

    const configFile = path.join(await scratchDir('steward-haproxy-'), 'haproxy.cfg');
    await writeFile(configFile, haproxyConfig(ports));
    const haproxy = startChild(HAPROXY, ['-db', '-f', configFile], { PATH: process.env.PATH });
    cleanups.push(async () => {
      haproxy.child.kill('SIGTERM');
      await haproxy.exited;
    });
    // Ready once it answers through a process.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const health = await fetch(`${url}/auth/v1/health`).catch(() => null);
      if (health?.ok) break;
      if (haproxy.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`haproxy did not start: ${haproxy.output.join('')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    return {
      url,
      keys: deriveKeys(jwtSecret),
      databaseUrl: database.url,
      apis,
      worker,
      startWorker: async () => startSteward('worker', await freePort()),
      async restartApi(index) {
        const steward = await startSteward(allInOne ? 'all' : 'api', ports.apis[index]!);
        apis[index] = steward;
        return steward;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Kills a process at once, as a crash or an out-of-memory kill would. */
export async function kill(started: Started): Promise<void> {
  started.child.kill('SIGKILL');
  await started.exited;
}
