import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { deriveKeys } from '../../server/http/keys.ts';
import { serverNodeFlags } from '../../server/node-flags.ts';
import { nodeClient, startTestServer } from '../support/server.ts';
import {
  copyPgliteTemplate,
  freshPostgresDatabase,
  postgresAdminUrl,
  rootDir,
} from '../support/template.ts';
import { filesUnder } from './storage-helpers.ts';
import { scratchDir } from '../support/scratch.ts';

// The embedded server is killed (SIGKILL) in the middle of a stream of writes, then started
// again on the same data directory: every write it acknowledged must still be there, byte for
// byte; no stored file may be half-written; and after the start-up sweep no file without a row
// may remain. With TEST_DATABASE_URL the rows live in PostgreSQL and the files in DATA_DIR.

const JWT_SECRET = 'durability-test-secret-with-more-than-32-characters';
const keys = deriveKeys(JWT_SECRET);
const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const child of children) killGroup(child, 'SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  // The server runs under tsx, which runs node: the whole process group goes.
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The tables the writes go to, created before the server first starts. */
const SETUP_SQL = `
  create table public.durability_log (id integer primary key, payload text not null);
  alter table public.durability_log enable row level security;
  insert into storage.buckets (id, name) values ('durable', 'durable');
`;

interface Backend {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Opens the database the server uses (only while the server is stopped, for PGlite). */
  open(): Promise<Database>;
}

async function prepareBackend(): Promise<Backend> {
  const dataDir = await scratchDir('steward-durability-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const fresh = await freshPostgresDatabase(adminUrl, { schema: 'app' });
    cleanups.push(fresh.drop);
    const db = await openPostgres(fresh.url);
    await db.serverWork().exec(SETUP_SQL);
    await db.close();
    return { dataDir, databaseUrl: fresh.url, open: () => openPostgres(fresh.url) };
  }
  // From the migrated template, as every test server starts: migrating here took a minute.
  await copyPgliteTemplate('app', path.join(dataDir, 'db'));
  const db = await openDatabase({ dataDir });
  await db.serverWork().exec(SETUP_SQL);
  await db.close();
  return { dataDir, databaseUrl: undefined, open: () => openDatabase({ dataDir }) };
}

interface RunningChild {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

/** `tsx server/index.ts` on `backend`, resolved once it answers HTTP. */
async function startChild(backend: Backend): Promise<RunningChild> {
  const port = await freePort();
  const child = spawn(
    path.join(rootDir, 'node_modules', '.bin', 'tsx'),
    [...serverNodeFlags, 'server/index.ts'],
    {
      cwd: rootDir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATA_DIR: backend.dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        JWT_SECRET,
        LOG_REQUESTS: '0',
        ...(backend.databaseUrl ? { DATABASE_URL: backend.databaseUrl } : { DATABASE_URL: '' }),
      },
    },
  );
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => children.delete(child));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited during start-up:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/config.json`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await sleep(200);
  }
  return { url, child, output: () => output, exited };
}

interface Attempt {
  acknowledged: boolean;
}
interface RowAttempt extends Attempt {
  id: number;
  payload: string;
}
interface FileAttempt extends Attempt {
  name: string;
  sha256: string;
}

/**
 * Streams writes until `stop` is set: rows through REST and files through storage, each with a
 * record of what was sent and whether the server acknowledged it (a 2xx answer).
 */
function streamWrites(url: string, stop: { now: boolean }) {
  const client = nodeClient(url, keys.serviceRoleKey);
  const rows: RowAttempt[] = [];
  const files: FileAttempt[] = [];
  let nextId = 1;

  const rowWriter = async () => {
    while (!stop.now) {
      const attempt: RowAttempt = {
        id: nextId++,
        payload: randomBytes(12).toString('hex'),
        acknowledged: false,
      };
      rows.push(attempt);
      try {
        const { error } = await client
          .from('durability_log')
          .insert({ id: attempt.id, payload: attempt.payload });
        if (!error) attempt.acknowledged = true;
      } catch {
        // The server went away mid-request: not acknowledged.
      }
    }
  };

  const fileWriter = async (worker: number) => {
    for (let i = 0; !stop.now; i++) {
      // From a few bytes to 4 MiB, so that writes are often caught half-way.
      const size = i % 3 === 0 ? 4 * 1024 * 1024 : Math.floor(Math.random() * 600_000);
      const content = randomBytes(size);
      const attempt: FileAttempt = {
        name: `w${worker}/file-${i}.bin`,
        sha256: sha256(content),
        acknowledged: false,
      };
      files.push(attempt);
      try {
        const body = i % 2 === 0 ? content : new Blob([content]);
        const { error } = await client.storage.from('durable').upload(attempt.name, body, {
          contentType: 'application/octet-stream',
        });
        if (!error) attempt.acknowledged = true;
      } catch {
        // Not acknowledged.
      }
    }
  };

  const done = Promise.all([rowWriter(), rowWriter(), fileWriter(1), fileWriter(2), fileWriter(3)]);
  return { rows, files, done };
}

describe('durability of the embedded data directory', () => {
  it('keeps every acknowledged write after a SIGKILL, and no partial or orphaned file', async () => {
    const backend = await prepareBackend();
    const first = await startChild(backend);

    const stop = { now: false };
    const writes = streamWrites(first.url, stop);
    // Kill once enough has been acknowledged, while writes are in flight.
    const deadline = Date.now() + 30_000;
    while (
      Date.now() < deadline &&
      (writes.rows.filter((r) => r.acknowledged).length < 30 ||
        writes.files.filter((f) => f.acknowledged).length < 6)
    ) {
      await sleep(50);
    }
    // Best of all while a file is half-written: wait (a little) for a temporary file.
    const storageDir = path.join(backend.dataDir, 'storage');
    const partDeadline = Date.now() + 10_000;
    while (
      Date.now() < partDeadline &&
      !(await filesUnder(storageDir)).some((file) => file.endsWith('.part'))
    ) {
      await sleep(2);
    }
    killGroup(first.child, 'SIGKILL');
    await first.exited;
    stop.now = true;
    await writes.done;

    const ackedRows = writes.rows.filter((r) => r.acknowledged);
    const ackedFiles = writes.files.filter((f) => f.acknowledged);
    expect(ackedRows.length).toBeGreaterThanOrEqual(30);
    expect(ackedFiles.length).toBeGreaterThanOrEqual(6);

    // Orphans as a crash leaves them, planted so that the sweep is tested whatever the kill
    // caught: a finished file without a row, and an unfinished temporary file.
    const orphan = randomUUID();
    const orphanDir = path.join(backend.dataDir, 'storage', 'objects', orphan.slice(0, 2));
    await mkdir(orphanDir, { recursive: true });
    await writeFile(path.join(orphanDir, orphan), 'no row points at me');
    await writeFile(path.join(orphanDir, `${randomUUID()}.part`), 'half a fi');

    const second = await startChild(backend);
    try {
      const client = nodeClient(second.url, keys.serviceRoleKey);

      const { data: rows, error } = await client
        .from('durability_log')
        .select('id, payload')
        .order('id');
      expect(error).toBeNull();
      const stored = new Map(rows!.map((row) => [row.id as number, row.payload as string]));
      for (const row of ackedRows) expect(stored.get(row.id), `row ${row.id}`).toBe(row.payload);
      // Rows that were sent but not acknowledged may exist, but only as sent.
      for (const row of writes.rows) {
        if (stored.has(row.id)) expect(stored.get(row.id)).toBe(row.payload);
      }

      const bucket = client.storage.from('durable');
      for (const file of ackedFiles) {
        const { data, error: downloadError } = await bucket.download(file.name);
        expect(downloadError, file.name).toBeNull();
        expect(sha256(new Uint8Array(await data!.arrayBuffer())), file.name).toBe(file.sha256);
      }
      // Whatever the server committed, acknowledged or not, is complete.
      const sent = new Map(writes.files.map((file) => [file.name, file.sha256]));
      for (const worker of ['w1', 'w2', 'w3']) {
        const { data: listed } = await bucket.list(worker, { limit: 1000 });
        for (const entry of listed ?? []) {
          const name = `${worker}/${entry.name}`;
          const { data } = await bucket.download(name);
          expect(sha256(new Uint8Array(await data!.arrayBuffer())), name).toBe(sent.get(name));
        }
      }
    } finally {
      killGroup(second.child, 'SIGTERM');
      await second.exited;
    }

    // With the server stopped: exactly one file per row, each matching its row's metadata.
    const db = await backend.open();
    let objects: { version: string; metadata: { size: number; eTag: string } }[];
    try {
      objects = (
        await db
          .serverWork()
          .query<{ version: string; metadata: { size: number; eTag: string } }>(
            'select version, metadata from storage.objects order by version',
          )
      ).rows;
    } finally {
      await db.close();
    }
    const onDisk = await filesUnder(path.join(backend.dataDir, 'storage'));
    expect(onDisk).toEqual(
      objects.map((object) => `objects/${object.version.slice(0, 2)}/${object.version}`).sort(),
    );
    for (const object of objects) {
      const content = await readFile(
        path.join(
          backend.dataDir,
          'storage',
          'objects',
          object.version.slice(0, 2),
          object.version,
        ),
      );
      expect(content.length).toBe(object.metadata.size);
      expect(`"${md5(content)}"`).toBe(object.metadata.eTag);
    }
  }, 240_000);
});

// PostgreSQL may end the server's connections at any time (a restart, a failover, an
// administrator). The server must neither stop nor fail requests once the connections are gone:
// the pool opens new ones. PGlite runs inside the server and has no connections to lose.
const postgresForRestart = postgresAdminUrl();
if (postgresForRestart) {
  describe('database connections ended by PostgreSQL', () => {
    it('keeps the server running and answering', async () => {
      const server = await startTestServer({ schema: 'app' });
      cleanups.push(() => server.close());
      const client = server.service();
      const read = () => client.from('organizations').select('id');
      expect((await read()).error).toBeNull();
      await Promise.all([read(), read(), read()]); // several pooled connections, now idle

      const database = new URL(server.databaseUrl!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: postgresForRestart });
      await admin.connect();
      try {
        const ended = await admin.query<{ count: string }>(
          `select count(*) from (select pg_terminate_backend(pid) from pg_stat_activity
            where datname = $1 and pid <> pg_backend_pid()) t`,
          [database],
        );
        expect(Number(ended.rows[0]!.count)).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      // The pool hears of each ended connection shortly after; then every request succeeds.
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 0; i < 5; i += 1) expect((await read()).error).toBeNull();
    });
  });
}
