import {
  GetObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Settings } from '../../server/config/object-storage-settings.ts';
import { ManualClock } from '../../server/jobs/clock.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { s3Client } from '../../server/storage/s3-file-store.ts';
import { createOrganisation, type Organisation } from '../security/world.ts';
import { objectStorageEnv, startLocalS3Server, type LocalS3Server } from '../support/s3.ts';
import { scratchDir } from '../support/scratch.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { postgresAdminUrl } from '../support/template.ts';

// Resumable uploads on a server whose stored files are in an S3 bucket go to the bucket too
// (@tus/s3-store: an S3 multipart upload per upload), against a real S3 server on this machine
// (s3rver from npm, with ListParts and AbortMultipartUpload from patches/), whatever
// TEST_OBJECT_STORAGE says. tests/backend/storage-resumable.test.ts checks the rules of
// resumable uploads on the S3 pass as on the disk.

const DAY = 24 * 60 * 60 * 1000;

let s3: LocalS3Server;
beforeAll(async () => {
  s3 = await startLocalS3Server();
});
afterAll(() => s3?.close());

/** Every key of the bucket, without the installation's prefix. */
async function keysOf(client: S3Client, settings: S3Settings): Promise<string[]> {
  const listed = await client.send(
    new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: settings.prefix }),
  );
  return (listed.Contents ?? []).map((item) => item.Key!.slice(settings.prefix.length)).sort();
}

/** The S3 multipart upload that holds the bytes of the resumable upload `id`. */
async function multipartOf(client: S3Client, settings: S3Settings, id: string) {
  const key = `${settings.prefix}resumable/${id}`;
  const info = await client.send(
    new GetObjectCommand({ Bucket: settings.bucket, Key: `${key}.info` }),
  );
  const uploadId = info.Metadata?.['upload-id'];
  return {
    parts: () =>
      client.send(new ListPartsCommand({ Bucket: settings.bucket, Key: key, UploadId: uploadId })),
  };
}

async function tokenOf(organisation: Organisation): Promise<string> {
  const { data } = await organisation.master.client.auth.getSession();
  return data.session!.access_token;
}

/** TUS as tus-js-client speaks it, by hand, so that each request can go to a chosen process. */
function tus(organisation: Organisation, anonKey: string) {
  const headers = async (extra: Record<string, string> = {}) => ({
    apikey: anonKey,
    authorization: `Bearer ${await tokenOf(organisation)}`,
    'tus-resumable': '1.0.0',
    ...extra,
  });
  return {
    async create(via: { url: string }, name: string, length: number): Promise<string> {
      const metadata = [
        ['bucketName', 'documents'],
        ['objectName', name],
        ['contentType', 'application/pdf'],
        ['cacheControl', '3600'],
      ]
        .map(([key, value]) => `${key} ${Buffer.from(value!).toString('base64')}`)
        .join(',');
      const created = await fetch(`${via.url}/storage/v1/upload/resumable`, {
        method: 'POST',
        headers: await headers({ 'upload-length': String(length), 'upload-metadata': metadata }),
      });
      expect(created.status).toBe(201);
      return created.headers.get('location')!.split('/').pop()!;
    },
    async patch(via: { url: string }, id: string, offset: number, bytes: Buffer) {
      return fetch(`${via.url}/storage/v1/upload/resumable/${id}`, {
        method: 'PATCH',
        headers: await headers({
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        }),
        body: new Uint8Array(bytes),
      });
    },
    async head(via: { url: string }, id: string) {
      return fetch(`${via.url}/storage/v1/upload/resumable/${id}`, {
        method: 'HEAD',
        headers: await headers(),
      });
    },
    async cancel(via: { url: string }, id: string) {
      return fetch(`${via.url}/storage/v1/upload/resumable/${id}`, {
        method: 'DELETE',
        headers: await headers(),
      });
    },
  };
}

const newName = (organisation: Organisation) =>
  `documents/${organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.pdf`;

async function download(organisation: Organisation, name: string): Promise<Buffer | null> {
  const { data } = await organisation.master.client.storage.from('documents').download(name);
  return data ? Buffer.from(await data.arrayBuffer()) : null;
}

describe('resumable uploads into a bucket', () => {
  let settings: S3Settings;
  let client: S3Client;
  let clock: ManualClock;
  let server: TestServer;
  let church: Organisation;
  beforeAll(async () => {
    settings = await s3.freshBucket();
    client = s3Client(settings);
    clock = new ManualClock(new Date());
    server = await startTestServer({ env: objectStorageEnv(settings), clock });
    church = await createOrganisation(server, 'Bucket Upload Church');
  });
  afterAll(() => server?.close());

  it('keeps the bytes under resumable/ in the bucket, none on the disk and no object until complete', async () => {
    const uploads = tus(church, server.keys.anonKey);
    const bytes = randomBytes(300_000);
    const name = newName(church);
    const id = await uploads.create(server, name, bytes.length);
    expect((await uploads.patch(server, id, 0, bytes.subarray(0, 100_000))).status).toBe(204);
    // The description and the last part, smaller than S3's 5 MiB minimum, kept aside.
    expect(await keysOf(client, settings)).toEqual([
      `resumable/${id}.info`,
      `resumable/${id}.part`,
    ]);
    expect(await download(church, name)).toBeNull();

    expect((await uploads.patch(server, id, 100_000, bytes.subarray(100_000))).status).toBe(204);
    expect((await download(church, name))?.equals(bytes)).toBe(true);
    // The object is in objects/, the upload's parts are gone (its description stays for a day,
    // marked finished, for a client whose last answer was lost).
    const keys = await keysOf(client, settings);
    expect(keys.filter((key) => key.startsWith('resumable/'))).toEqual([`resumable/${id}.info`]);
    expect(keys.filter((key) => key.startsWith('objects/'))).toHaveLength(1);
    expect((await uploads.head(server, id)).headers.get('upload-offset')).toBe(
      String(bytes.length),
    );
  });

  it('aborts the multipart upload of a cancelled upload and of one abandoned for a day', async () => {
    const uploads = tus(church, server.keys.anonKey);
    // Past S3's 5 MiB minimum: a part of the multipart upload itself, not only the last part.
    const bytes = randomBytes(6 * 1024 * 1024);
    const cancelled = await uploads.create(server, newName(church), bytes.length);
    expect((await uploads.patch(server, cancelled, 0, bytes.subarray(0, 5_500_000))).status).toBe(
      204,
    );
    const cancelledParts = await multipartOf(client, settings, cancelled);
    expect((await cancelledParts.parts()).Parts).toHaveLength(1);
    expect((await uploads.cancel(server, cancelled)).status).toBe(204);
    await expect(cancelledParts.parts()).rejects.toMatchObject({ name: 'NoSuchUpload' });
    expect((await keysOf(client, settings)).filter((key) => key.includes(cancelled))).toEqual([]);

    const start = Date.now();
    clock.set(new Date(start));
    // The scheduler registers its schedules at its first check, due from then: check now, as a
    // running server's first poll would have, so that the day passes after it.
    await server.jobs.runDue();
    const abandoned = await uploads.create(server, newName(church), bytes.length);
    expect((await uploads.patch(server, abandoned, 0, bytes.subarray(0, 5_500_000))).status).toBe(
      204,
    );
    const abandonedParts = await multipartOf(client, settings, abandoned);
    clock.set(new Date(start + DAY + 2 * 60 * 60 * 1000));
    await server.jobs.runDue();
    await expect(abandonedParts.parts()).rejects.toMatchObject({ name: 'NoSuchUpload' });
    expect((await keysOf(client, settings)).filter((key) => key.startsWith('resumable/'))).toEqual(
      [],
    );
    expect((await uploads.head(server, abandoned)).status).toBe(404);
  });
});

// Issue 26: any API process on the database and the bucket continues any upload, so a balancer
// needs no sticky rule for them. Processes share a database on PostgreSQL only.
if (postgresAdminUrl()) {
  describe('resumable uploads into a bucket, through two processes', () => {
    let settings: S3Settings;
    let first: TestServer;
    let second: RunningServer;
    let church: Organisation;
    beforeAll(async () => {
      settings = await s3.freshBucket();
      first = await startTestServer({
        // One secret for both, as every process of an installation has.
        env: { ...objectStorageEnv(settings), JWT_SECRET: randomBytes(32).toString('hex') },
      });
      second = await startServer({
        // Another process: its own data directory and connections, the same database and bucket.
        config: {
          ...first.config,
          port: 0,
          dataDir: await scratchDir('steward-second-'),
          databaseUrl: first.databaseUrl!,
        },
      });
      church = await createOrganisation(first, 'Two Process Church');
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('continues and completes through one process an upload started through the other', async () => {
      const uploads = tus(church, first.keys.anonKey);
      const bytes = randomBytes(700_000);
      const name = newName(church);
      const id = await uploads.create(first, name, bytes.length);
      expect((await uploads.patch(first, id, 0, bytes.subarray(0, 250_000))).status).toBe(204);
      // The other process knows where it stands and takes the rest.
      const head = await uploads.head(second, id);
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-offset')).toBe('250000');
      expect(
        (await uploads.patch(second, id, 250_000, bytes.subarray(250_000, 500_000))).status,
      ).toBe(204);
      expect((await uploads.head(first, id)).headers.get('upload-offset')).toBe('500000');
      const last = await uploads.patch(second, id, 500_000, bytes.subarray(500_000));
      expect(last.status).toBe(204);
      expect((await download(church, name))?.equals(bytes)).toBe(true);
      // The first process learns that it is done (a client whose last answer was lost).
      const done = await uploads.head(first, id);
      expect(done.status).toBe(200);
      expect(done.headers.get('upload-offset')).toBe(String(bytes.length));
      // A wrong offset is refused on either process, whoever took the bytes before.
      expect((await uploads.patch(first, id, 0, bytes.subarray(0, 10))).status).toBe(404);
    });
  });
}
