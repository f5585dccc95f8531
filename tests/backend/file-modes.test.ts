import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupInstallation } from '../../server/backup/backup.ts';
import { restoreInstallation } from '../../server/backup/restore.ts';
import { readConfig, type ServerConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open.ts';
import type { PgliteHost } from '../../server/db/pglite-host.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { createOrganisation, type Person } from '../security/world.ts';
import { nodeClient, type TestServer } from '../support/server.ts';
import { freshPostgresDatabase, pgliteTemplate, postgresAdminUrl } from '../support/template.ts';
import { uploadDocument } from './document-helpers.ts';
import { scratchDir } from '../support/scratch.ts';

// Files on disk are private (issue 22, R9): the data directory is 0700 and everything the
// server writes under it (the embedded database's files, stored objects, unfinished uploads,
// exports, secrets) 0600 or 0700, also under a permissive umask and in a data directory made
// before; backups are written 0600 and restore private. Checked with lstat on the real files.

const cleanups: (() => Promise<unknown>)[] = [];
let umask: number;
beforeAll(() => {
  // As permissive as an operator's shell could be.
  umask = process.umask(0o000);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  process.umask(umask);
});

async function tempDir(label: string): Promise<string> {
  const dir = await scratchDir(`steward-${label}-`);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every entry under `root` (and `root`) that its group or others may use, with its mode. */
async function notPrivate(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (entry: string) => {
    const stats = await lstat(entry);
    if ((stats.mode & 0o077) !== 0) {
      found.push(`${path.relative(root, entry) || '.'} ${(stats.mode & 0o777).toString(8)}`);
    }
    if (stats.isDirectory()) {
      for (const name of await readdir(entry)) await walk(path.join(entry, name));
    }
  };
  await walk(root);
  return found;
}

/** All files under `root`, for the test to know it looked at something. */
async function fileCount(root: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) count += 1;
  }
  return count;
}

async function serve(dataDir: string, db?: Database): Promise<TestServer> {
  const config: ServerConfig = {
    ...readConfig({
      DATA_DIR: dataDir,
      AUTH_BCRYPT_COST: '4',
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000000',
      AUTH_EMAIL_ENABLE_CONFIRMATIONS: 'false',
      JOB_POLL_INTERVAL: '1h',
    }),
    port: 0,
    host: '127.0.0.1',
    logRequests: false,
  };
  const running: RunningServer = await startServer({
    config,
    skipMigrations: true,
    ...(db ? { db } : {}),
  });
  cleanups.push(() => running.close());
  return {
    ...running,
    dataDir,
    anon: () => nodeClient(running.url, running.keys.anonKey),
    service: () => nodeClient(running.url, running.keys.serviceRoleKey),
  };
}

/** The server's migrated database: PostgreSQL in the PostgreSQL run, else PGlite in `dataDir`. */
async function migratedDatabase(dataDir: string): Promise<Database> {
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const fresh = await freshPostgresDatabase(adminUrl);
    cleanups.push(fresh.drop);
    return openDatabase({ dataDir, databaseUrl: fresh.url });
  }
  const template = new Uint8Array(await readFile(await pgliteTemplate('app')));
  return openDatabase({ dataDir, loadDataDir: template });
}

/** Starts a resumable upload and sends half of it, as an upload cut off by a closed laptop. */
async function halfAnUpload(server: TestServer, person: Person, name: string): Promise<void> {
  const { data } = await person.client.auth.getSession();
  const auth = {
    apikey: server.keys.anonKey,
    authorization: `Bearer ${data.session!.access_token}`,
    'tus-resumable': '1.0.0',
  };
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const created = await fetch(`${server.url}/storage/v1/upload/resumable`, {
    method: 'POST',
    headers: {
      ...auth,
      'upload-length': String(64 * 1024),
      'upload-metadata': `bucketName ${b64('documents')},objectName ${b64(name)},contentType ${b64('application/pdf')}`,
    },
  });
  expect(created.status).toBe(201);
  const patched = await fetch(new URL(created.headers.get('location')!, server.url), {
    method: 'PATCH',
    headers: {
      ...auth,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: randomBytes(32 * 1024),
  });
  expect(patched.status).toBe(204);
}

// Each test starts (and restarts) servers on their own data directories: slow on a busy machine.
describe('files on disk are private', { timeout: 120_000 }, () => {
  it('keeps the data directory and everything written in it to the owner, whatever the umask, also one made before', async () => {
    const dataDir = path.join(await tempDir('modes'), 'data');
    // A data directory of an older Steward under umask 000: open to everyone.
    await mkdir(path.join(dataDir, 'storage', 'objects'), { recursive: true, mode: 0o777 });
    await writeFile(path.join(dataDir, 'jwt-secret'), `${randomBytes(32).toString('hex')}\n`, {
      mode: 0o644,
    });
    expect(await notPrivate(dataDir)).not.toEqual([]);

    const server = await serve(dataDir, await migratedDatabase(dataDir));
    const church = await createOrganisation(server, 'Private Church');
    await uploadDocument(church.master, church, { name: 'Personnel file.txt' });
    await halfAnUpload(server, church.master, `documents/${church.id}/${Date.now()}-big.pdf`);
    const exported = await church.master.client.rpc('start_organization_export');
    expect(exported.error).toBeNull();
    await server.jobs.runDue();
    const { rows: exports } = await server.db
      .serverWork()
      .query<{ status: string }>(
        'select status from public.organization_exports where organization_id = $1',
        [church.id],
      );
    expect(exports).toEqual([{ status: 'ready' }]);
    if (server.db.kind === 'pglite') {
      // A new database worker (after a request past its deadline) opens the files again.
      await (server.db as PgliteHost).restart(new Error('a request ran past its deadline'));
      await server.db.serverWork().query('select 1');
    }

    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect(await fileCount(path.join(dataDir, 'storage'))).toBeGreaterThanOrEqual(4);
    expect(await notPrivate(dataDir)).toEqual([]);
  });
});

if (!postgresAdminUrl()) {
  describe('backups are private', { timeout: 120_000 }, () => {
    it('writes the archive 0600 and restores an installation whose files are private', async () => {
      const dataDir = path.join(await tempDir('modes'), 'data');
      const server = await serve(dataDir, await migratedDatabase(dataDir));
      const church = await createOrganisation(server, 'Backed-up Church');
      await uploadDocument(church.master, church, { name: 'Contract.txt' });

      const file = path.join(await tempDir('backup'), 'steward.tar.gz');
      await backupInstallation({
        config: server.config,
        file,
        serverUrl: server.url,
      });
      expect((await stat(file)).mode & 0o777).toBe(0o600);

      const restoredDir = path.join(await tempDir('restore'), 'data');
      await restoreInstallation({ config: { ...server.config, dataDir: restoredDir }, file });
      expect(await fileCount(restoredDir)).toBeGreaterThan(100);
      expect(await notPrivate(restoredDir)).toEqual([]);
    });
  });
}
