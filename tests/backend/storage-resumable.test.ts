import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/jobs/clock.ts';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { isFinished } from '../../server/storage/resumable-store.ts';
import { testingOnS3 } from '../support/s3.ts';
import {
  resumableStoreOf,
  storageTotalDrift,
  storedObjectFiles,
  type StorageErrorBody,
} from './storage-helpers.ts';

// Resumable uploads (issue 13, item 4): Supabase Storage's TUS endpoint, driven by tus-js-client
// as the app drives it, with the rules of the normal upload.

const QUOTA = 5_000_000;
const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let clock: ManualClock;
let church: Organisation;
let member: Person;
let neighbour: Organisation;

beforeAll(async () => {
  clock = new ManualClock(new Date());
  server = await startTestServer({
    env: { STORAGE_QUOTA_PER_ORGANIZATION: String(QUOTA) },
    clock,
  });
  church = await createOrganisation(server, 'Resumable Church');
  member = await addMember(server, church, 'user');
  neighbour = await createOrganisation(server, 'Resumable Neighbour');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const endpoint = () => `${server.url}/storage/v1/upload/resumable`;
/** The uploads the resumable store holds (on the disk, or in the bucket on the S3 pass). */
const heldUploads = () => resumableStoreOf(server).uploadIds();
/**
 * The uploads the resumable store holds but the finished ones (their descriptions are kept for
 * a day, with no bytes, so that a client whose last answer was lost learns that it is done).
 */
async function unfinishedUploads(): Promise<string[]> {
  const store = resumableStoreOf(server);
  const kept: string[] = [];
  for (const id of await store.uploadIds()) {
    const info = await store.describe(id);
    if (!info || !isFinished(info)) kept.push(id);
  }
  return kept;
}
const objectFiles = () => storedObjectFiles(server);
const newPath = (organisation: Organisation, extension = 'pdf') =>
  `documents/${organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.${extension}`;

async function tokenOf(person: Person): Promise<string> {
  const { data } = await person.client.auth.getSession();
  return data.session!.access_token;
}

interface UploadOptions {
  bucket?: string;
  name: string;
  contentType?: string;
  uploadUrl?: string | null;
  upsert?: boolean;
  chunkSize?: number;
  /** Called when the server accepted a chunk; may stop the upload. */
  onChunkComplete?: (size: number, accepted: number, upload: tus.Upload) => void;
  onBeforeRequest?: (request: tus.HttpRequest) => void;
}

/**
 * Uploads `bytes` as `person` with tus-js-client, the way the app does (Supabase's headers and
 * metadata); resolves with the upload's URL, or rejects with tus-js-client's error.
 */
function upload(person: Person | null, bytes: Buffer, options: UploadOptions) {
  return new Promise<{ url: string; upload: tus.Upload }>((resolve, reject) => {
    void (async () => {
      const headers: Record<string, string> = { apikey: server.keys.anonKey };
      if (person) headers.authorization = `Bearer ${await tokenOf(person)}`;
      if (options.upsert) headers['x-upsert'] = 'true';
      const upload: tus.Upload = new tus.Upload(bytes, {
        endpoint: endpoint(),
        uploadUrl: options.uploadUrl ?? null,
        headers,
        retryDelays: [],
        chunkSize: options.chunkSize ?? Infinity,
        metadata: {
          bucketName: options.bucket ?? 'documents',
          objectName: options.name,
          contentType: options.contentType ?? 'application/pdf',
          cacheControl: '3600',
        },
        onChunkComplete: (size, accepted) => options.onChunkComplete?.(size, accepted, upload),
        onBeforeRequest: (request) => options.onBeforeRequest?.(request),
        onSuccess: () => resolve({ url: upload.url!, upload }),
        onError: reject,
      });
      upload.start();
    })().catch(reject);
  });
}

/**
 * Starts an upload in chunks of `chunkSize` and stops it (the app closed, the laptop slept) once
 * the server has accepted the first chunk; resolves with the upload's URL.
 */
function uploadFirstChunk(person: Person, bytes: Buffer, name: string, chunkSize: number) {
  return new Promise<string>((resolve, reject) => {
    let stopped = false;
    upload(person, bytes, {
      name,
      chunkSize,
      onChunkComplete: (_size, accepted, started) => {
        if (stopped) return;
        stopped = true;
        expect(accepted).toBe(chunkSize);
        // abort(false) keeps the upload on the server.
        void started.abort(false).then(() => resolve(started.url!), reject);
      },
    }).then(() => reject(new Error('the upload finished before it was stopped')), reject);
  });
}

/**
 * Sends `bytes` from `offset` in a PATCH whose connection drops (church Wi-Fi) once the server
 * has written `arrive` of them to its file.
 */
async function patchCutOff(
  person: Person,
  url: string,
  bytes: Buffer,
  offset: number,
  arrive: number,
) {
  const request = http.request(url, {
    method: 'PATCH',
    headers: {
      apikey: server.keys.anonKey,
      authorization: `Bearer ${await tokenOf(person)}`,
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      'content-length': String(bytes.length - offset),
    },
  });
  request.on('error', () => undefined);
  request.write(bytes.subarray(offset, offset + arrive));
  // The bytes wait in the upload's file on the disk; in the bucket, in the temporary file of the
  // part being collected (@tus/s3-store's, with the last part the bucket had, until S3's minimum).
  const partFiles = testingOnS3()
    ? async () => (await readdir(tmpdir())).map((name) => path.join(tmpdir(), name))
    : async () => [path.join(server.dataDir, 'storage', 'resumable', url.split('/').pop()!)];
  const sizes = async () =>
    Promise.all(
      (await partFiles()).map((file) =>
        stat(file).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
  await vi.waitFor(async () => expect(await sizes()).toContain(offset + arrive), {
    timeout: 10_000,
  });
  request.destroy();
}

/** The status and storage error in tus-js-client's error for a refused request. */
function refusalOf(error: unknown): { status: number; body: StorageErrorBody } {
  const detailed = error as tus.DetailedError;
  const response = detailed.originalResponse;
  if (!response) throw error;
  return {
    status: response.getStatus(),
    body: JSON.parse(response.getBody()) as StorageErrorBody,
  };
}

/** What the organisation stores, as its master admin reads it on the users page. */
async function usageOf(organisation: Organisation) {
  const { data, error } = await organisation.master.client
    .rpc('organization_storage_usage')
    .single<{ used_bytes: number; uploads_bytes: number }>();
  if (error) throw new Error(error.message);
  return data;
}

async function download(person: Person, name: string): Promise<Buffer | null> {
  const { data } = await person.client.storage.from('documents').download(name);
  return data ? Buffer.from(await data.arrayBuffer()) : null;
}

describe('resumable uploads (TUS at /storage/v1/upload/resumable)', () => {
  it('resumes a cut upload where the server has it, and shows nothing until the last byte', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const name = newPath(church);
    const objectsBefore = await objectFiles();

    const chunk = 1024 * 1024;
    const url = await uploadFirstChunk(member, bytes, name, chunk);
    expect(url).toMatch(/\/storage\/v1\/upload\/resumable\/[0-9a-f-]{36}$/);
    // The connection drops in the middle of the next request: what arrived is kept.
    await patchCutOff(member, url, bytes, chunk, 300_000);
    // Partly sent: no object, no file among the objects, the part kept aside.
    expect(await download(member, name)).toBeNull();
    expect((await member.client.storage.from('documents').exists(name)).data).toBe(false);
    expect(await objectFiles()).toEqual(objectsBefore);
    expect(await unfinishedUploads()).toEqual([url.split('/').pop()]);

    const offsets: string[] = [];
    await upload(member, bytes, {
      name,
      uploadUrl: url,
      onBeforeRequest: (request) => {
        if (request.getMethod() === 'PATCH') offsets.push(request.getHeader('Upload-Offset')!);
      },
    });
    // One PATCH, from the last byte the server has, not from the start.
    expect(offsets).toEqual([String(chunk + 300_000)]);

    expect((await download(member, name))?.equals(bytes)).toBe(true);
    const { data: info } = await member.client.storage.from('documents').info(name);
    expect(info).toMatchObject({ size: bytes.length, contentType: 'application/pdf' });
    expect(await unfinishedUploads()).toEqual([]);
  });

  it('tells a client whose answer to the last chunk was lost that the upload is done', async () => {
    const bytes = randomBytes(512 * 1024);
    const name = newPath(church);
    const url = await uploadFirstChunk(member, bytes, name, 256 * 1024);
    // The last chunk arrives and is stored; its answer never reaches the client.
    const last = await fetch(url, {
      method: 'PATCH',
      headers: {
        apikey: server.keys.anonKey,
        authorization: `Bearer ${await tokenOf(member)}`,
        'tus-resumable': '1.0.0',
        'upload-offset': String(256 * 1024),
        'content-type': 'application/offset+octet-stream',
      },
      body: bytes.subarray(256 * 1024),
    });
    expect(last.status).toBe(204);

    const sent: string[] = [];
    await upload(member, bytes, {
      name,
      uploadUrl: url,
      onBeforeRequest: (request) => sent.push(request.getMethod()),
    });
    // One question, no byte sent again, no second object attempted.
    expect(sent).toEqual(['HEAD']);
    expect((await download(member, name))?.equals(bytes)).toBe(true);
    expect(await unfinishedUploads()).toEqual([]);
    // Nobody else learns anything about it.
    const other = await fetch(url, {
      method: 'HEAD',
      headers: {
        apikey: server.keys.anonKey,
        authorization: `Bearer ${await tokenOf(church.master)}`,
        'tus-resumable': '1.0.0',
      },
    });
    expect(other.status).toBe(404);
  });

  it('uploads in chunks as supabase-js documents (6 MB), and replaces with x-upsert only', async () => {
    const name = newPath(church);
    const first = randomBytes(700_000);
    await upload(church.master, first, { name, chunkSize: 256 * 1024 });
    expect((await download(church.master, name))?.equals(first)).toBe(true);

    const second = randomBytes(1000);
    const duplicate = await upload(church.master, second, { name }).catch(refusalOf);
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'KeyAlreadyExists' } });
    await upload(church.master, second, { name, upsert: true });
    expect((await download(church.master, name))?.equals(second)).toBe(true);
    expect(await unfinishedUploads()).toEqual([]);
  });

  it("refuses an upload into another organisation's folder or by a deactivated member (row-level security) before any byte", async () => {
    const refused = await upload(member, randomBytes(1000), { name: newPath(neighbour) }).catch(
      refusalOf,
    );
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'AccessDenied', message: 'new row violates row-level security policy' },
    });
    // A deactivated member still holds a token, but no longer an organisation's folder.
    const deactivated = await addDeactivatedMember(server, church);
    const byDeactivated = await upload(deactivated, randomBytes(1000), {
      name: newPath(church),
    }).catch(refusalOf);
    expect(byDeactivated).toMatchObject({ status: 403, body: { code: 'AccessDenied' } });
    expect(await unfinishedUploads()).toEqual([]);
  });

  it('refuses without a signed-in caller', async () => {
    const refused = await upload(null, randomBytes(10), { name: newPath(church) }).catch(refusalOf);
    expect(refused).toMatchObject({ status: 403, body: { code: 'AccessDenied' } });
    const anonymous = await fetch(endpoint(), {
      method: 'POST',
      headers: {
        apikey: server.keys.anonKey,
        authorization: `Bearer ${server.keys.anonKey}`,
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `bucketName ${btoa('documents')},objectName ${btoa(newPath(church))}`,
      },
    });
    expect(anonymous.status).toBe(403);
    expect(await unfinishedUploads()).toEqual([]);
  });

  it("refuses a file that would pass the organisation's quota, counting uploads in progress by their declared length", async () => {
    const quotaChurch = await createOrganisation(server, 'Quota Resumable Church');
    const tooBig = await upload(quotaChurch.master, randomBytes(QUOTA + 1), {
      name: newPath(quotaChurch),
    }).catch(refusalOf);
    expect(tooBig).toMatchObject({
      status: 403,
      body: { message: "Your organization's storage is full (quota: 4883 kB)" },
    });

    // Two uploads that each fit, but not together: the first holds its declared length from
    // its creation, so the second is refused when it is created, before a byte of it is taken.
    const a = newPath(quotaChurch);
    const b = newPath(quotaChurch);
    const bytes = randomBytes(3_000_000);
    const cutA = await uploadFirstChunk(quotaChurch.master, bytes, a, 1024 * 1024);
    expect(await usageOf(quotaChurch)).toMatchObject({
      used_bytes: 3_000_000,
      uploads_bytes: 3_000_000,
    });
    // A reservation is no object: the running total of objects holds none of it.
    expect(await storageTotalDrift(server)).toEqual([]);
    const refused = await uploadFirstChunk(quotaChurch.master, bytes, b, 1024 * 1024).catch(
      refusalOf,
    );
    expect(refused).toMatchObject({
      status: 403,
      body: { message: "Your organization's storage is full (quota: 4883 kB)" },
    });
    await upload(quotaChurch.master, bytes, { name: a, uploadUrl: cutA });
    // The object took over the reservation: counted once.
    expect(await usageOf(quotaChurch)).toMatchObject({ used_bytes: 3_000_000, uploads_bytes: 0 });
    expect(await storageTotalDrift(server)).toEqual([]);
    expect((await quotaChurch.master.client.storage.from('documents').exists(b)).data).toBe(false);
    expect(await unfinishedUploads()).toEqual([]);
  });

  it("applies the bucket's size limit and MIME types", async () => {
    const logo = `${church.id}/logo.svg`;
    const wrongType = await upload(church.master, randomBytes(100), {
      bucket: 'branding',
      name: logo,
      contentType: 'text/html',
    }).catch(refusalOf);
    expect(wrongType).toMatchObject({ status: 415, body: { code: 'InvalidMimeType' } });
    // The branding bucket takes 5 MiB (a raster logo's upload, issue 24).
    const tooLarge = await upload(church.master, randomBytes(5 * 1024 * 1024 + 1), {
      bucket: 'branding',
      name: logo,
      contentType: 'image/svg+xml',
    }).catch(refusalOf);
    expect(tooLarge).toMatchObject({ status: 413, body: { code: 'EntityTooLarge' } });
    const badName = await upload(church.master, randomBytes(10), {
      name: `documents/${church.id}/../${neighbour.id}/x.pdf`,
    }).catch(refusalOf);
    expect(badName).toMatchObject({ status: 400, body: { code: 'InvalidKey' } });
    expect(await unfinishedUploads()).toEqual([]);
  });

  it('lets nobody but its creator continue, read, look at or cancel an upload', async () => {
    const bytes = randomBytes(1024 * 1024);
    const name = newPath(church);
    const url = await uploadFirstChunk(member, bytes, name, 256 * 1024);
    const colleague = church.master;
    const headers = async (person: Person) => ({
      apikey: server.keys.anonKey,
      authorization: `Bearer ${await tokenOf(person)}`,
      'tus-resumable': '1.0.0',
    });

    const head = await fetch(url, { method: 'HEAD', headers: await headers(colleague) });
    expect(head.status).toBe(404);
    const offset = Number(
      (await fetch(url, { method: 'HEAD', headers: await headers(member) })).headers.get(
        'upload-offset',
      ),
    );
    expect(offset).toBeGreaterThan(0);
    const patch = await fetch(url, {
      method: 'PATCH',
      headers: {
        ...(await headers(colleague)),
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      body: bytes.subarray(offset),
    });
    expect(patch.status).toBe(404);
    const remove = await fetch(url, { method: 'DELETE', headers: await headers(colleague) });
    expect(remove.status).toBe(404);
    // The part is never served, not even to its creator.
    const read = await fetch(url, { headers: await headers(member) });
    expect(read.status).toBe(404);
    expect(Buffer.from(await read.arrayBuffer()).includes(bytes.subarray(0, 64))).toBe(false);

    // Its creator may cancel it: nothing is left, and its room is given back.
    expect((await usageOf(church)).uploads_bytes).toBe(bytes.length);
    const cancel = await fetch(url, { method: 'DELETE', headers: await headers(member) });
    expect(cancel.status).toBe(204);
    expect(await unfinishedUploads()).toEqual([]);
    expect((await usageOf(church)).uploads_bytes).toBe(0);
    expect((await member.client.storage.from('documents').exists(name)).data).toBe(false);
  });

  it('removes uploads abandoned for a day through the job scheduler', async () => {
    const bytes = randomBytes(1024 * 1024);
    const url = await uploadFirstChunk(member, bytes, newPath(church), 256 * 1024);
    const start = Date.now();
    clock.set(new Date(start));
    await server.jobs.runDue();
    const id = url.split('/').pop()!;
    clock.set(new Date(start + DAY - 60 * 60 * 1000));
    await server.jobs.runDue();
    expect(await heldUploads()).toContain(id);
    expect((await usageOf(church)).uploads_bytes).toBe(bytes.length);

    clock.set(new Date(start + DAY + 2 * 60 * 60 * 1000));
    await server.jobs.runDue();
    // Every upload of the file is over a day old now: the finished ones' descriptions go too,
    // and the room they held.
    expect(await heldUploads()).toEqual([]);
    expect((await usageOf(church)).uploads_bytes).toBe(0);
    const head = await fetch(url, {
      method: 'HEAD',
      headers: {
        apikey: server.keys.anonKey,
        authorization: `Bearer ${await tokenOf(member)}`,
        'tus-resumable': '1.0.0',
      },
    });
    expect(head.status).toBe(404);
  });
});
