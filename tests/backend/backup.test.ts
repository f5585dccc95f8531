import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupInstallation } from '../../server/backup/backup.ts';
import { restoreInstallation } from '../../server/backup/restore.ts';
import type { DumpableDatabase } from '../../server/backup/snapshot.ts';
import { openFileStore } from '../../server/storage/open-file-store.ts';
import { takeSnapshot } from '../../server/backup/snapshot.ts';
import type { ServerConfig } from '../../server/config.ts';
import type { PgliteHost } from '../../server/db/pglite-host.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import {
  addMember,
  createOrganisation,
  PASSWORD,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { bundledScript } from '../support/bundled-script.ts';
import { nodeClient, startTestServer, type TestServer } from '../support/server.ts';
import { postgresAdminUrl, rootDir } from '../support/template.ts';
import { uploadDocument, uploadFile } from './document-helpers.ts';
import { scratchDir } from '../support/scratch.ts';

// Item 5 of issue 15: `npm run backup` copies the whole installation (database, stored files,
// secrets) consistently while the server serves; `npm run restore` puts it into an empty data
// directory, refusing anything that is not a whole, safe Steward backup of this or an older
// version. Driven through the functions the two commands call, against a real server.

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function tempDir(label: string): Promise<string> {
  const dir = await scratchDir(`steward-${label}-`);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every stored object of the installation, its file's bytes checked against its row. */
async function storedObjects(
  server: RunningServer,
): Promise<{ name: string; consistent: boolean }[]> {
  const { rows } = await server.db
    .serverWork()
    .query<{ name: string; version: string; etag: string }>(
      `select bucket_id || '/' || name as name, version, metadata->>'eTag' as etag
       from storage.objects order by 1`,
    );
  return Promise.all(
    rows.map(async (row) => {
      const file = path.join(
        server.config.dataDir,
        'storage',
        'objects',
        row.version.slice(0, 2),
        row.version,
      );
      const bytes = await readFile(file).catch(() => null);
      return { name: row.name, consistent: bytes !== null && `"${md5(bytes)}"` === row.etag };
    }),
  );
}

/** Names in `dir` left by a restore that did not finish. */
const leftovers = async (dir: string) =>
  (await readdir(dir)).filter((name) => name.includes('.restoring-'));

/**
 * Runs `scripts/<script>` as `npm run` would, with `env` on top of this process's: under tsx, or
 * with `bundled`, the script bundled into one file (bundled-script.ts) run with `node`.
 */
async function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  bundled?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, first] = bundled
    ? [process.execPath, bundled]
    : [path.join(rootDir, 'node_modules', '.bin', 'tsx'), `scripts/${script}`];
  const child = spawn(command, [first, ...args], {
    cwd: rootDir,
    env: { ...process.env, DATABASE_URL: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

const postgres = postgresAdminUrl();

if (postgres) {
  describe('installation backup on PostgreSQL', () => {
    it('refuses backup and restore and points to pg_dump and the storage folder', async () => {
      const server = await startTestServer();
      cleanups.push(() => server.close());
      const target = path.join(await tempDir('backup'), 'backup.tar.gz');
      const config = { ...server.config, databaseUrl: server.databaseUrl };
      await expect(backupInstallation({ config, file: target })).rejects.toThrow(
        /pg_dump and a copy of the storage folder/,
      );
      const response = await fetch(`${server.url}/backup/v1/snapshot`, {
        method: 'POST',
        headers: {
          apikey: server.keys.serviceRoleKey,
          authorization: `Bearer ${server.keys.serviceRoleKey}`,
        },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/pg_dump/);
      await expect(restoreInstallation({ config, file: target })).rejects.toThrow(
        /restore it with pg_restore and the storage folder/,
      );
      await expect(stat(target)).rejects.toThrow();
    });
  });
} else {
  describe('installation backup and restore', () => {
    let server: TestServer;
    let church: Organisation;
    let other: Organisation;
    let member: Person;
    let backupFile: string;
    const binary = randomBytes(300_000);
    let inFlightName: string;
    let binaryPath: string;
    let restored: RunningServer;
    let restoredFiles: number;
    let backupScript: { file: string; remove: () => Promise<void> };

    beforeAll(async () => {
      backupScript = await bundledScript(path.join('scripts', 'backup.ts'));
      cleanups.push(() => backupScript.remove());
      server = await startTestServer();
      cleanups.push(() => server.close());
      church = await createOrganisation(server, 'Backup Church');
      other = await createOrganisation(server, 'Other Church');
      member = await addMember(server, church, 'user', 'backup-member');
      await uploadDocument(church.master, church, { name: 'Lease.txt', content: 'The lease' });
      await uploadDocument(other.master, other, { name: 'Minutes.txt', content: 'Minutes' });
      binaryPath = await uploadFile(member, church, binary, 'application/octet-stream', 'bin');
      inFlightName = `documents/${church.id}/in-flight.txt`;
      backupFile = path.join(await tempDir('backup'), 'steward.tar.gz');
    });

    it('takes a consistent backup while the server serves uploads and replacements', async () => {
      // An upload whose body is still arriving while the backup is taken.
      const { data } = await member.client.auth.getSession();
      let sendRest!: () => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('first half, '));
          sendRest = () => {
            controller.enqueue(new TextEncoder().encode('second half'));
            controller.close();
          };
        },
      });
      const inFlight = fetch(`${server.url}/storage/v1/object/documents/${inFlightName}`, {
        method: 'POST',
        headers: {
          apikey: server.keys.anonKey,
          authorization: `Bearer ${data.session!.access_token}`,
          'content-type': 'text/plain',
        },
        body,
        duplex: 'half',
      } as RequestInit);

      // Files replaced again and again meanwhile: each replacement deletes the previous file.
      const churnPath = `documents/${church.id}/churn.txt`;
      let churning = true;
      let replaced = 0;
      const churn = (async () => {
        while (churning) {
          const content = new TextEncoder().encode(`version ${replaced}`);
          unwrap(
            await member.client.storage
              .from('documents')
              .upload(churnPath, content, { upsert: true, contentType: 'text/plain' }),
            'replace churn.txt',
          );
          replaced += 1;
        }
      })();

      // `npm run backup` as an administrator runs it, beside the server: bundled beforehand, as
      // the consistency check's tests run it (consistency-check.ts). Under tsx the script's
      // compilation, about a second of CPU, came on top while the uploads above went on.
      const before = replaced;
      const backup = await runScript(
        'backup.ts',
        [backupFile],
        { DATA_DIR: server.dataDir, PORT: new URL(server.url).port, HOST: '127.0.0.1' },
        backupScript.file,
      );
      const during = replaced - before;
      churning = false;
      await churn;
      sendRest();
      const uploaded = await inFlight;
      expect(uploaded.status, await uploaded.clone().text()).toBe(200);

      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(
        /^Backup written to .*steward\.tar\.gz .*taken by the running server/,
      );
      // The server went on answering while the backup was taken.
      expect(during).toBeGreaterThan(0);
      // The snapshot put together in the data directory is gone.
      await expect(stat(path.join(server.dataDir, 'backup-snapshots'))).rejects.toThrow(/ENOENT/);
      // A second backup never overwrites the first.
      await expect(
        backupInstallation({ config: server.config, file: backupFile, serverUrl: server.url }),
      ).rejects.toThrow(/already exists/);
      await expect(
        backupInstallation({ config: server.config, file: backupFile, serverUrl: server.url }),
      ).rejects.toThrow(/already exists/);
    });

    it('keeps every file the dumped database refers to, even one deleted right after the dump', async () => {
      // The moment a deletion in earnest could fall into, at will: a document's file is
      // deleted through the API after the database is dumped and before the files are taken.
      const name = await uploadFile(member, church, 'deleted after the dump');
      const host = server.db as PgliteHost;
      const deleteAfterDump: DumpableDatabase = {
        async dumpWith(file, read) {
          const result = await host.dumpWith(file, read);
          const removed = unwrap(
            await church.master.client.storage.from('documents').remove([name]),
            'remove',
          );
          expect(removed.length).toBe(1);
          return result;
        },
      };
      const { rows } = await server.db
        .serverWork()
        .query<{ version: string }>(
          `select version from storage.objects where bucket_id = 'documents' and name = $1`,
          [name],
        );
      const objectFile = (dir: string) =>
        path.join(dir, 'storage', 'objects', rows[0]!.version.slice(0, 2), rows[0]!.version);

      const snapshot = await takeSnapshot(
        server.dataDir,
        openFileStore(server.dataDir, server.config.storage.objects),
        deleteAfterDump,
        new Date(),
      );
      cleanups.push(() => rm(snapshot.dir, { recursive: true, force: true }));
      expect(snapshot.manifest.missing_files).toEqual([]);
      expect(snapshot.manifest.files).toBe((await storedObjects(server)).length + 1);
      expect(await readFile(objectFile(snapshot.dir), 'utf8')).toBe('deleted after the dump');
      // Once the snapshot has its own link to the file, the deletion takes place.
      await expect(stat(objectFile(server.dataDir))).rejects.toThrow(/ENOENT/);
    });

    it('restores into an empty directory a server that has the same documents, files and users', async () => {
      const dataDir = path.join(await tempDir('restore'), 'data');
      const config: ServerConfig = { ...server.config, dataDir };
      const { manifest } = await restoreInstallation({ config, file: backupFile });
      expect(manifest.files).toBeGreaterThanOrEqual(3);
      restoredFiles = manifest.files;
      // The same migrations as the backed-up server, which the manifest and restore checked.
      restored = await startServer({ config, skipMigrations: true });
      cleanups.push(() => restored.close());

      // Every object row has its file, with the bytes its checksum names.
      const objects = await storedObjects(restored);
      expect(objects.length).toBe(manifest.files);
      expect(objects.filter((object) => !object.consistent)).toEqual([]);
      // The upload still arriving during the backup was not in it.
      expect(objects.map((object) => object.name)).not.toContain(`documents/${inFlightName}`);

      // Users sign in with their passwords and see their organisation's documents only.
      const client = nodeClient(restored.url, restored.keys.anonKey);
      const signIn = await client.auth.signInWithPassword({
        email: member.email,
        password: PASSWORD,
      });
      expect(signIn.error).toBeNull();
      const documents = unwrap(await client.from('documents').select('name'), 'documents');
      expect(documents.map((row) => row.name)).toEqual(['Lease.txt']);
      const download = await client.storage.from('documents').download(binaryPath);
      expect(download.error).toBeNull();
      expect(Buffer.from(await download.data!.arrayBuffer()).equals(binary)).toBe(true);
      // The keys stay those of the backed-up installation (its JWT secret is restored).
      expect(restored.keys.anonKey).toBe(server.keys.anonKey);
    });

    it('backs up a stopped installation by opening its data directory', async () => {
      await restored.close();
      const file = path.join(await tempDir('backup'), 'stopped.tar.gz');
      const result = await backupInstallation({ config: restored.config, file });
      expect(result.taken).toBe('from the stopped data directory');
      expect(result.manifest.files).toBe(restoredFiles);
    });

    it('refuses a data directory that is not empty, and leaves it as it was', async () => {
      const parent = await tempDir('restore');
      const dataDir = path.join(parent, 'data');
      await mkdir(dataDir);
      await writeFile(path.join(dataDir, 'notes.txt'), 'keep me');
      await expect(
        restoreInstallation({ config: { ...server.config, dataDir }, file: backupFile }),
      ).rejects.toThrow(/is not empty/);
      expect(await readdir(dataDir)).toEqual(['notes.txt']);
      expect(await leftovers(parent)).toEqual([]);
    });

    it('npm run restore says why it refuses and exits with 1', async () => {
      const parent = await tempDir('restore');
      const garbage = path.join(parent, 'garbage.tar.gz');
      await writeFile(garbage, randomBytes(1024));
      const dataDir = path.join(parent, 'data');
      const restore = await runScript('restore.ts', [garbage], { DATA_DIR: dataDir });
      expect(restore.code).toBe(1);
      expect(restore.stderr).toMatch(
        /^Restore failed: .*garbage\.tar\.gz is not a readable backup/,
      );
      await expect(stat(dataDir)).rejects.toThrow(/ENOENT/);
    });

    it('refuses a damaged archive and writes nothing', async () => {
      const parent = await tempDir('restore');
      const whole = await readFile(backupFile);
      const damaged = path.join(parent, 'damaged.tar.gz');
      await writeFile(damaged, whole.subarray(0, Math.floor(whole.length / 2)));
      const garbage = path.join(parent, 'garbage.tar.gz');
      await writeFile(garbage, randomBytes(4096));
      for (const file of [damaged, garbage, path.join(parent, 'missing.tar.gz')]) {
        const dataDir = path.join(parent, 'data');
        await expect(
          restoreInstallation({ config: { ...server.config, dataDir }, file }),
        ).rejects.toThrow(/not a readable backup|damaged|no backup file/);
        await expect(stat(dataDir)).rejects.toThrow();
        expect(await leftovers(parent)).toEqual([]);
      }
    });

    /** A gzip-compressed tar of `entries`, written by hand so it can hold what tar refuses to. */
    function archive(
      entries: { path: string; content?: string; type?: 'File' | 'SymbolicLink'; link?: string }[],
    ): Buffer {
      const blocks: Buffer[] = [];
      for (const entry of entries) {
        const content = Buffer.from(entry.content ?? '');
        const header = new Header({
          path: entry.path,
          mode: 0o600,
          size: entry.type === 'SymbolicLink' ? 0 : content.length,
          mtime: new Date(),
          type: entry.type ?? 'File',
          ...(entry.link ? { linkpath: entry.link } : {}),
        });
        const block = Buffer.alloc(512);
        header.encode(block);
        blocks.push(block);
        if (entry.type !== 'SymbolicLink') {
          blocks.push(content, Buffer.alloc((512 - (content.length % 512)) % 512));
        }
      }
      blocks.push(Buffer.alloc(1024));
      return gzipSync(Buffer.concat(blocks));
    }

    const manifestWith = (fields: Record<string, unknown>) =>
      JSON.stringify({
        product: 'steward',
        format: 1,
        version: '2.1.0',
        created_at: new Date().toISOString(),
        migrations: [],
        files: 0,
        missing_files: [],
        ...fields,
      });

    it.each([
      {
        case: 'an archive of another product',
        entries: [
          { path: 'steward-backup.json', content: manifestWith({ product: 'papra' }) },
          { path: 'db.tar', content: 'x' },
        ],
        message: /not a Steward backup/,
      },
      {
        case: 'an archive without a manifest',
        entries: [{ path: 'db.tar', content: 'x' }],
        message: /not a Steward backup/,
      },
      {
        case: 'a backup of a newer version',
        entries: [
          { path: 'steward-backup.json', content: manifestWith({ version: '99.0.0' }) },
          { path: 'db.tar', content: 'x' },
        ],
        message: /made by Steward 99\.0\.0, newer than this one/,
      },
      {
        case: 'a backup with database changes this version does not know',
        entries: [
          {
            path: 'steward-backup.json',
            content: manifestWith({ migrations: ['99990101000000'] }),
          },
          { path: 'db.tar', content: 'x' },
        ],
        message: /does not know \(99990101000000\)/,
      },
      {
        case: 'a path with ..',
        entries: [
          { path: 'steward-backup.json', content: manifestWith({}) },
          { path: 'db.tar', content: 'x' },
          { path: 'storage/../../escaped.txt', content: 'out' },
        ],
        message: /unsafe path \(storage\/\.\.\/\.\.\/escaped\.txt\)/,
      },
      {
        case: 'an absolute path',
        entries: [
          { path: 'steward-backup.json', content: manifestWith({}) },
          { path: 'db.tar', content: 'x' },
          { path: '/tmp/steward-escaped.txt', content: 'out' },
        ],
        message: /unsafe path \(\/tmp\/steward-escaped\.txt\)/,
      },
      {
        case: 'a symbolic link',
        entries: [
          { path: 'steward-backup.json', content: manifestWith({}) },
          { path: 'db.tar', content: 'x' },
          { path: 'jwt-secret', type: 'SymbolicLink' as const, link: '/etc/passwd' },
        ],
        message: /SymbolicLink entry \(jwt-secret\)/,
      },
      {
        case: 'an entry a backup never has',
        entries: [
          { path: 'steward-backup.json', content: manifestWith({}) },
          { path: 'db.tar', content: 'x' },
          { path: 'storage/objects/ab/not-a-version', content: 'x' },
        ],
        message: /unexpected entry \(storage\/objects\/ab\/not-a-version\)/,
      },
      {
        case: 'a database that is not one',
        entries: [
          { path: 'steward-backup.json', content: manifestWith({}) },
          { path: 'db.tar', content: 'not a database' },
        ],
        message: /could not be opened|does not match/,
      },
    ])('refuses $case with a clear message and writes nothing', async (example) => {
      const parent = await tempDir('restore');
      const file = path.join(parent, 'hostile.tar.gz');
      await writeFile(file, archive(example.entries));
      const dataDir = path.join(parent, 'data');
      await expect(
        restoreInstallation({ config: { ...server.config, dataDir }, file }),
      ).rejects.toThrow(example.message);
      await expect(stat(dataDir)).rejects.toThrow();
      expect(await leftovers(parent)).toEqual([]);
      expect(await readdir(parent)).toEqual(['hostile.tar.gz']);
      await expect(stat('/tmp/steward-escaped.txt')).rejects.toThrow();
    });

    it('answers the snapshot request of anyone but the service role with 403', async () => {
      const { data } = await member.client.auth.getSession();
      for (const token of [server.keys.anonKey, data.session!.access_token]) {
        const response = await fetch(`${server.url}/backup/v1/snapshot`, {
          method: 'POST',
          headers: { apikey: server.keys.anonKey, authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(403);
        expect(((await response.json()) as { message: string }).message).toMatch(/service_role/);
      }
    });
  });
}
