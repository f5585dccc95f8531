import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { randomBytes, randomUUID } from 'node:crypto';
import { rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupInstallation } from '../../server/backup/backup.ts';
import { restoreInstallation } from '../../server/backup/restore.ts';
import type { ServerConfig } from '../../server/config.ts';
import type { S3Settings } from '../../server/config/object-storage-settings.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { s3Client } from '../../server/storage/s3-file-store.ts';
import { createOrganisation, type Organisation, unwrap } from '../security/world.ts';
import { objectStorageEnv, startLocalS3Server, type LocalS3Server } from '../support/s3.ts';
import { scratchDir } from '../support/scratch.ts';
import { nodeClient, startTestServer, type TestServer } from '../support/server.ts';
import { postgresAdminUrl } from '../support/template.ts';
import { uploadDocument, uploadFile } from './document-helpers.ts';
import { removeCheckScript, runCheck } from './consistency-check.ts';
import { filesUnder } from './storage-helpers.ts';

// Stored files in an S3-compatible bucket (steward.toml [object_storage] backend = "s3"),
// against a real S3 server on this machine (s3rver from npm), whatever TEST_OBJECT_STORAGE
// says: the bytes go to the bucket and come back through the Storage API, a refused upload
// leaves nothing there, and the start-up sweep and the consistency check see the bucket.

let s3: LocalS3Server;
beforeAll(async () => {
  s3 = await startLocalS3Server();
});
afterAll(() => s3?.close());

/** The keys under the bucket's `objects/`, with the prefix. */
async function keysOf(client: S3Client, settings: S3Settings): Promise<string[]> {
  const listed = await client.send(
    new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: `${settings.prefix}objects/` }),
  );
  return (listed.Contents ?? []).map((item) => item.Key!).sort();
}

/** The key of a version, as the store names it. */
const keyOf = (settings: S3Settings, version: string) =>
  `${settings.prefix}objects/${version.slice(0, 2)}/${version}`;

/** Makes an object look `minutes` old to the bucket (s3rver dates it by its file's mtime). */
async function age(settings: S3Settings, key: string, minutes: number): Promise<void> {
  const parts = key.split('/');
  const file = path.join(s3.directory, settings.bucket, ...parts.slice(0, -1));
  const when = new Date(Date.now() - minutes * 60_000);
  await utimes(path.join(file, `${parts.at(-1)}._S3rver_object`), when, when);
}

async function versionOf(server: TestServer, bucket: string, name: string): Promise<string> {
  const { rows } = await server.db
    .serverWork()
    .query<{ version: string }>(
      'select version from storage.objects where bucket_id = $1 and name = $2',
      [bucket, name],
    );
  return rows[0]!.version;
}

describe('stored files in an S3 bucket', () => {
  let settings: S3Settings;
  let client: S3Client;
  let server: TestServer;

  beforeAll(async () => {
    settings = await s3.freshBucket();
    client = s3Client(settings);
    server = await startTestServer({ env: objectStorageEnv(settings) });
    const service = server.service();
    unwrap(
      await service.storage.createBucket('papers', { public: false, fileSizeLimit: '10MB' }),
      'create bucket',
    );
  });
  afterAll(() => server?.close());

  it('writes uploads to the bucket and serves them, whole and by range, from there', async () => {
    const service = server.service();
    const small = Buffer.from('Minutes of the parish council');
    // Past the 8 MiB part size: a multipart upload, completed only once every part is there.
    const large = randomBytes(9 * 1024 * 1024 + 17);
    unwrap(await service.storage.from('papers').upload('minutes.txt', small), 'upload small');
    unwrap(await service.storage.from('papers').upload('scan.bin', large), 'upload large');

    const versions = [
      await versionOf(server, 'papers', 'minutes.txt'),
      await versionOf(server, 'papers', 'scan.bin'),
    ];
    expect(await keysOf(client, settings)).toEqual(
      versions.map((version) => keyOf(settings, version)).sort(),
    );
    // Nothing of them on this machine's disk.
    expect(await filesUnder(path.join(server.dataDir, 'storage', 'objects'))).toEqual([]);
    const stored = await client.send(
      new GetObjectCommand({ Bucket: settings.bucket, Key: keyOf(settings, versions[1]!) }),
    );
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(large)).toBe(true);

    const downloaded = unwrap(await service.storage.from('papers').download('scan.bin'), 'get');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(large)).toBe(true);
    const ranged = await fetch(`${server.url}/storage/v1/object/papers/scan.bin`, {
      headers: {
        authorization: `Bearer ${server.keys.serviceRoleKey}`,
        apikey: server.keys.anonKey,
        range: 'bytes=8388600-8388615',
      },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 8388600-8388615/${large.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(large.subarray(8388600, 8388616))).toBe(
      true,
    );
  });

  it('copies into a new object of the bucket and removes objects from it', async () => {
    const service = server.service();
    unwrap(await service.storage.from('papers').copy('minutes.txt', 'copy.txt'), 'copy');
    const copy = await versionOf(server, 'papers', 'copy.txt');
    expect(copy).not.toBe(await versionOf(server, 'papers', 'minutes.txt'));
    expect(await keysOf(client, settings)).toContain(keyOf(settings, copy));
    const copied = unwrap(await service.storage.from('papers').download('copy.txt'), 'get');
    expect(await copied.text()).toBe('Minutes of the parish council');

    const before = await keysOf(client, settings);
    const original = await versionOf(server, 'papers', 'minutes.txt');
    unwrap(await service.storage.from('papers').remove(['minutes.txt', 'copy.txt']), 'remove');
    expect(await keysOf(client, settings)).toEqual(
      before.filter((key) => key !== keyOf(settings, copy) && key !== keyOf(settings, original)),
    );
  });

  it('refuses a file past the limit in the middle of its upload, leaving nothing in the bucket', async () => {
    const before = await keysOf(client, settings);
    // 11 MiB against 10 MB, sent without a length: the first 8 MiB part has gone to the
    // bucket before the excess arrives, and the multipart upload is never completed.
    const chunks = Array.from({ length: 11 }, () => randomBytes(1024 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const response = await fetch(`${server.url}/storage/v1/object/papers/too-large.bin`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.keys.serviceRoleKey}`,
        apikey: server.keys.anonKey,
        'content-type': 'application/octet-stream',
      },
      body,
      duplex: 'half',
    } as RequestInit);
    // Storage answers 400 and names 413 in the body, as hosted Storage does.
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });
    expect(await keysOf(client, settings)).toEqual(before);
    const { rows } = await server.db
      .serverWork()
      .query(`select 1 from storage.objects where bucket_id = 'papers' and name = 'too-large.bin'`);
    expect(rows).toEqual([]);
  });
});

describe('the start-up sweep of a bucket', () => {
  it('removes what no row points at once it is an hour old, and leaves younger objects', async () => {
    const settings = await s3.freshBucket();
    const client = s3Client(settings);
    const put = (key: string) =>
      client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: 'orphan' }));
    const old = keyOf(settings, randomUUID());
    // Possibly another server's upload whose row is still coming.
    const young = keyOf(settings, randomUUID());
    const stray = `${settings.prefix}objects/ab/not-a-version`;
    for (const key of [old, young, stray]) await put(key);
    await age(settings, old, 61);
    await age(settings, stray, 61);
    await age(settings, young, 59);

    const server = await startTestServer({ env: objectStorageEnv(settings) });
    try {
      // Storage answers once the sweep is done.
      unwrap(await server.service().storage.listBuckets(), 'list buckets');
      expect(await keysOf(client, settings)).toEqual([young]);
    } finally {
      await server.close();
    }
  });
});

describe('npm run check-consistency on a bucket', () => {
  let settings: S3Settings;
  let client: S3Client;
  let server: TestServer;
  let church: Organisation;

  beforeAll(async () => {
    settings = await s3.freshBucket();
    client = s3Client(settings);
    server = await startTestServer({ env: objectStorageEnv(settings) });
    church = await createOrganisation(server, 'Bucket Church');
  });
  afterAll(async () => {
    await server?.close();
    await removeCheckScript();
  });

  /**
   * The check as administrators run it (bundled once, consistency-check.ts), with the server's
   * [object_storage] settings: under tsx each of this test's three runs compiled the script and
   * the AWS SDK's modules anew, past the test's 30 s on a loaded machine.
   */
  async function check(args: string[]): Promise<{ code: number | null; report: CheckReport }> {
    const { code, stdout } = await runCheck(
      ['--url', server.url, '--data-dir', server.dataDir, '--json', ...args],
      objectStorageEnv(settings),
    );
    return { code, report: JSON.parse(stdout) as CheckReport };
  }

  interface CheckReport {
    diskNote: string;
    counts: { files: number | null };
    findings: {
      objectsWithoutFile: { name: string }[];
      orphanFiles: { item: { path: string } }[];
    };
    fix?: { result: { filesRemoved: number } };
  }

  it('reports objects missing from the bucket and objects of the bucket no row points at', async () => {
    const kept = await uploadDocument(church.master, church, { name: 'Lease.txt' });
    const lost = await uploadDocument(church.master, church, { name: 'Insurance.txt' });
    const clean = await check([]);
    expect(clean.code).toBe(0);
    expect(clean.report.diskNote).toBe(`files in s3://${settings.bucket}/steward/objects`);
    expect(clean.report.counts.files).toBe(2);

    const lostVersion = await versionOf(server, 'documents', lost.file_path);
    await client.send(
      new DeleteObjectCommand({ Bucket: settings.bucket, Key: keyOf(settings, lostVersion) }),
    );
    const stray = `objects/${randomUUID().slice(0, 2)}/left-by-a-crash`;
    await client.send(
      new PutObjectCommand({ Bucket: settings.bucket, Key: settings.prefix + stray, Body: 'x' }),
    );
    await age(settings, settings.prefix + stray, 5);

    const found = await check(['--grace-minutes', '1']);
    expect(found.code).toBe(1);
    expect(found.report.findings.objectsWithoutFile.map((object) => object.name)).toEqual([
      lost.file_path,
    ]);
    expect(found.report.findings.orphanFiles.map((file) => file.item.path)).toEqual([stray]);

    const fixed = await check(['--grace-minutes', '1', '--fix']);
    expect(fixed.report.fix?.result.filesRemoved).toBe(1);
    expect(await keysOf(client, settings)).toEqual([
      keyOf(settings, await versionOf(server, 'documents', kept.file_path)),
    ]);
  });
});

describe('the data directory of a server on a bucket', () => {
  it('holds no stored file once work that read one has ended', async () => {
    const settings = await s3.freshBucket();
    const server = await startTestServer({ env: objectStorageEnv(settings) });
    try {
      const church = await createOrganisation(server, 'Scratch Church');
      await uploadDocument(church.master, church, { name: 'Policy.txt' });
      // Reading the document's text copies its file to this machine for the reader.
      await server.jobs.runDue();
      const scratch = path.join(server.dataDir, 'storage', 'scratch');
      expect(await filesUnder(scratch)).toEqual([]);
      expect(await stat(path.join(server.dataDir, 'storage', 'objects')).catch(() => null)).toBe(
        null,
      );
    } finally {
      await server.close();
    }
  });
});

// `npm run backup` refuses an installation on PostgreSQL (README, "Backup and restore").
if (!postgresAdminUrl()) {
  describe('backup and restore of a server on a bucket', () => {
    // Two servers and a backup on a loaded machine: the suite's default 30 s is too short.
    it('puts the bucket objects the database names in the archive, and restores them into a bucket', async () => {
      const settings = await s3.freshBucket();
      const server = await startTestServer({ env: objectStorageEnv(settings) });
      const work = await scratchDir('steward-s3-backup-');
      let restored: RunningServer | undefined;
      try {
        const church = await createOrganisation(server, 'Backed-up Church');
        const scan = randomBytes(200_000);
        const filePath = await uploadFile(church.master, church, scan, 'application/pdf', 'pdf');
        const file = path.join(work, 'steward.tar.gz');
        const { manifest } = await backupInstallation({
          config: server.config,
          file,
          serverUrl: server.url,
        });
        expect(manifest.files).toBe(1);
        expect(manifest.missing_files).toEqual([]);

        const target = await s3.freshBucket();
        const config: ServerConfig = {
          ...server.config,
          dataDir: path.join(work, 'restored'),
          storage: { ...server.config.storage, objects: { backend: 's3', ...target } },
        };
        await restoreInstallation({ config, file });
        const version = await versionOf(server, 'documents', filePath);
        expect(await keysOf(s3Client(target), target)).toEqual([keyOf(target, version)]);
        // Handed to the bucket: no copy stays in the restored data directory.
        expect(await filesUnder(path.join(config.dataDir, 'storage', 'objects'))).toEqual([]);

        restored = await startServer({ config, skipMigrations: true });
        const service = nodeClient(restored.url, restored.keys.serviceRoleKey);
        const downloaded = unwrap(
          await service.storage.from('documents').download(filePath),
          'get',
        );
        expect(Buffer.from(await downloaded.arrayBuffer()).equals(scan)).toBe(true);
      } finally {
        await restored?.close();
        await server.close();
        await rm(work, { recursive: true, force: true });
      }
    }, 120_000);
  });
}
