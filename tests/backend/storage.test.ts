import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingHandle, wrapHandles } from '../support/db-handles.ts';
import { signJwt } from '../../server/http/jwt.ts';
import { urlSigningKey } from '../../server/storage/signed-url.ts';
import { READ_FIRST_MAX_BYTES } from '../../server/storage/object-write.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  createStorageFixtures,
  storageFetch,
  storedFiles,
  testUser,
  type StorageErrorBody,
  type TestUser,
} from './storage-helpers.ts';

let server: TestServer;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  await createStorageFixtures(server);
  alice = testUser(server);
});
afterAll(async () => {
  await server?.close();
});

const files = () => alice.client.storage.from('files');
const bytes = (size: number, seed = 7) =>
  Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 256);
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function downloadBytes(path: string): Promise<Uint8Array> {
  const { data, error } = await files().download(path);
  if (error) throw error;
  return new Uint8Array(await data.arrayBuffer());
}

describe('storage: upload and download', () => {
  it('uploads a File as multipart and downloads the same bytes', async () => {
    const content = bytes(70_000);
    const path = `${alice.id}/docs/report.pdf`;
    const { data, error } = await files().upload(
      path,
      new File([content], 'report.pdf', { type: 'application/pdf' }),
    );
    expect(error).toBeNull();
    expect(data).toEqual({ path, id: expect.any(String), fullPath: `files/${path}` });
    expect(await downloadBytes(path)).toEqual(content);

    const info = await files().info(path);
    expect(info.data).toMatchObject({
      id: data!.id,
      name: path,
      bucketId: 'files',
      size: 70_000,
      contentType: 'application/pdf',
      cacheControl: 'max-age=3600',
      etag: `"${md5(content)}"`,
    });
  });

  it('uploads raw bodies (Buffer, string) with their content type and cache control', async () => {
    const binary = Buffer.from(bytes(1000, 3));
    const rawPath = `${alice.id}/raw/data.bin`;
    expect(
      (
        await files().upload(rawPath, binary, {
          contentType: 'application/octet-stream',
          cacheControl: '60',
        })
      ).error,
    ).toBeNull();
    expect(await downloadBytes(rawPath)).toEqual(new Uint8Array(binary));

    const textPath = `${alice.id}/raw/note.txt`;
    expect((await files().upload(textPath, 'Grüße, world')).error).toBeNull();
    const response = await storageFetch(server, `/object/files/${textPath}`, {
      token: alice.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('max-age=3600');
    expect(await response.text()).toBe('Grüße, world');

    const info = await files().info(rawPath);
    expect(info.data).toMatchObject({
      contentType: 'application/octet-stream',
      cacheControl: 'max-age=60',
    });
  });

  it('stores user metadata from multipart and from the x-metadata header', async () => {
    const a = `${alice.id}/meta/a.txt`;
    const b = `${alice.id}/meta/b.txt`;
    await files().upload(a, new Blob(['a'], { type: 'text/plain' }), {
      metadata: { kind: 'blob' },
    });
    await files().upload(b, 'b', { metadata: { kind: 'raw', n: 2 } });
    expect((await files().info(a)).data?.metadata).toEqual({ kind: 'blob' });
    expect((await files().info(b)).data?.metadata).toEqual({ kind: 'raw', n: 2 });
  });

  it('stores empty files', async () => {
    const path = `${alice.id}/empty/.emptyFolderPlaceholder`;
    expect((await files().upload(path, new Blob([]))).error).toBeNull();
    expect(await downloadBytes(path)).toEqual(new Uint8Array(0));
  });

  it('keeps object names in Unicode NFC', async () => {
    const decomposed = `${alice.id}/unicode/Cafe\u0301.txt`;
    const composed = `${alice.id}/unicode/Caf\u00e9.txt`;
    const { data } = await files().upload(decomposed, 'accent');
    expect(data?.fullPath).toBe(`files/${composed}`);
    expect(new TextDecoder().decode(await downloadBytes(composed))).toBe('accent');
    expect(new TextDecoder().decode(await downloadBytes(decomposed))).toBe('accent');
  });

  it('refuses a duplicate name with 409, replaces with upsert, and deletes the old file', async () => {
    const path = `${alice.id}/dup/file.txt`;
    const first = await files().upload(path, 'first');
    expect(first.error).toBeNull();
    const filesBefore = await storedFiles(server);

    const duplicate = await files().upload(path, 'second');
    expect(duplicate.error?.name).toBe('StorageApiError');
    expect(duplicate.error).toMatchObject({
      message: 'The resource already exists',
      status: 400,
      statusCode: '409',
    });

    const upserted = await files().upload(path, 'third', { upsert: true });
    expect(upserted.error).toBeNull();
    expect(upserted.data?.id).toBe(first.data?.id);
    expect(new TextDecoder().decode(await downloadBytes(path))).toBe('third');
    // One file replaced by another: as many files as before, none of the first version's.
    const filesAfter = await storedFiles(server);
    expect(filesAfter).toHaveLength(filesBefore.length);
    expect(filesAfter).not.toEqual(filesBefore);
  });

  it('updates an object with PUT', async () => {
    const path = `${alice.id}/update/doc.txt`;
    await files().upload(path, 'version 1');
    const { data, error } = await files().update(
      path,
      new Blob(['version 2'], { type: 'text/plain' }),
    );
    expect(error).toBeNull();
    expect(data?.fullPath).toBe(`files/${path}`);
    expect(new TextDecoder().decode(await downloadBytes(path))).toBe('version 2');
  });

  it('answers exists() and a missing object', async () => {
    const path = `${alice.id}/exists/yes.txt`;
    await files().upload(path, 'yes');
    expect((await files().exists(path)).data).toBe(true);
    expect((await files().exists(`${alice.id}/exists/no.txt`)).data).toBe(false);
    const missing = await files().download(`${alice.id}/exists/no.txt`);
    expect(missing.error).toMatchObject({
      status: 400,
      statusCode: '404',
      message: 'Object not found',
    });
  });

  it('serves the storage headers, download names, conditional requests and byte ranges', async () => {
    const path = `${alice.id}/headers/clip.mp4`;
    const content = bytes(5000);
    await files().upload(path, new Blob([content], { type: 'video/mp4' }));
    const full = await storageFetch(server, `/object/authenticated/files/${path}`, {
      token: alice.token,
    });
    expect(full.status).toBe(200);
    expect(Object.fromEntries(full.headers)).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': '5000',
      etag: `"${md5(content)}"`,
      'cache-control': 'max-age=3600',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    expect(new Date(full.headers.get('last-modified')!).getTime()).toBeGreaterThan(
      Date.now() - 600_000,
    );
    await full.arrayBuffer();

    const named = await storageFetch(
      server,
      `/object/files/${path}?download=Clip%20%C3%A9t%C3%A9.mp4`,
      {
        token: alice.token,
      },
    );
    expect(named.headers.get('content-disposition')).toBe(
      `attachment; filename="Clip _t_.mp4"; filename*=UTF-8''Clip%20%C3%A9t%C3%A9.mp4`,
    );
    await named.arrayBuffer();
    const plain = await storageFetch(server, `/object/files/${path}?download`, {
      token: alice.token,
    });
    expect(plain.headers.get('content-disposition')).toMatch(/^attachment; filename="clip.mp4"/);
    await plain.arrayBuffer();

    const notModified = await storageFetch(server, `/object/files/${path}`, {
      token: alice.token,
      headers: { 'if-none-match': `"${md5(content)}"` },
    });
    expect(notModified.status).toBe(304);

    const range = await storageFetch(server, `/object/files/${path}`, {
      token: alice.token,
      headers: { range: 'bytes=100-199' },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 100-199/5000');
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(content.subarray(100, 200));

    const suffix = await storageFetch(server, `/object/files/${path}`, {
      token: alice.token,
      headers: { range: 'bytes=-10' },
    });
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(content.subarray(4990));

    const unsatisfiable = await storageFetch(server, `/object/files/${path}`, {
      token: alice.token,
      headers: { range: 'bytes=6000-' },
    });
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers.get('content-range')).toBe('bytes */5000');
    expect(await unsatisfiable.json()).toMatchObject({ statusCode: '416', code: 'InvalidRange' });
  });

  it('answers HEAD with the headers and no body', async () => {
    const path = `${alice.id}/head/x.txt`;
    await files().upload(path, 'twelve bytes');
    const response = await storageFetch(server, `/object/files/${path}`, {
      method: 'HEAD',
      token: alice.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('12');
    expect(await response.text()).toBe('');
  });
});

// An upload's database work before its bytes (the bucket, its limits and the caller's rights)
// is one batch, the bucket looked up with the server's rights before the trial write as the
// caller, and its row after the bytes is one more: on PGlite two messages to the worker, each
// ended by the worker itself (the trial undone, the row committed). A small raw body already
// received (at most READ_FIRST_MAX_BYTES) is read first instead, and its row written once, after
// the bucket is looked up (a read-only batch, which the read cache's write clock does not count
// as a write): no trial. What the storage server answers first must still come first, and a
// refused upload keeps no file.
describe('storage: an upload’s turns of the database', () => {
  /**
   * The database calls `work` makes for alice (the server's background work aside): `runBatch`
   * with how it ends, or the method.
   */
  async function callsOf(work: () => Promise<unknown>): Promise<string[]> {
    const calls: string[] = [];
    const restore = wrapHandles(server.db, (handle) =>
      recordingHandle(handle, (call) => {
        if (handle.scope?.lane === `user:${alice.id}`) calls.push(call);
      }),
    );
    try {
      await work();
    } finally {
      restore();
    }
    return calls;
  }

  it('reads a small body first and writes its row once; a larger or multipart one after a trial', async () => {
    const small = await callsOf(async () => {
      expect((await files().upload(`${alice.id}/turns/one.txt`, 'one')).error).toBeNull();
    });
    expect(small).toEqual(['read', 'write, then commit']);
    expect(new TextDecoder().decode(await downloadBytes(`${alice.id}/turns/one.txt`))).toBe('one');

    const large = bytes(READ_FIRST_MAX_BYTES + 1);
    const big = await callsOf(async () => {
      expect(
        (await files().upload(`${alice.id}/turns/large.bin`, Buffer.from(large))).error,
      ).toBeNull();
    });
    expect(big).toEqual(['write, then rollback', 'write, then commit']);
    expect(await downloadBytes(`${alice.id}/turns/large.bin`)).toEqual(large);

    const multipart = await callsOf(async () => {
      const file = new File(['two'], 'two.txt', { type: 'text/plain' });
      expect((await files().upload(`${alice.id}/turns/two.txt`, file)).error).toBeNull();
    });
    expect(multipart).toEqual(['write, then rollback', 'write, then commit']);
  });

  it('answers a missing bucket first, then the bucket’s limits, then the caller’s rights', async () => {
    const upload = (bucket: string, name: string, headers: Record<string, string>, body: string) =>
      storageFetch(server, `/object/${bucket}/${name}`, {
        method: 'POST',
        token: alice.token,
        headers,
        body,
      }).then(async (response) => ((await response.json()) as StorageErrorBody).code);
    const someoneElse = '00000000-0000-4000-8000-000000000000';
    const text = { 'content-type': 'text/plain' };
    expect(await upload('nowhere', `${alice.id}/a.txt`, text, 'x')).toBe('NoSuchBucket');
    expect(
      await upload('nowhere', `${alice.id}/a.txt`, { 'content-type': 'not a mime type' }, 'x'),
    ).toBe('NoSuchBucket');
    // Into another user's folder, which the policies refuse: the limits are answered first.
    expect(
      await upload('limited', `${someoneElse}/a.pdf`, { 'content-type': 'application/pdf' }, 'x'),
    ).toBe('InvalidMimeType');
    expect(await upload('limited', `${someoneElse}/a.txt`, text, 'x'.repeat(2000))).toBe(
      'EntityTooLarge',
    );
    expect(await upload('limited', `${someoneElse}/a.txt`, text, 'x')).toBe('AccessDenied');
    expect(await storedFiles(server)).not.toContainEqual(expect.stringContaining(someoneElse));
  });

  it('answers each refusal of a small body read first as the trial answers a larger one, and keeps no file', async () => {
    const someoneElse = '00000000-0000-4000-8000-000000000000';
    const taken = `${alice.id}/turns/taken.txt`;
    expect((await files().upload(taken, 'first')).error).toBeNull();
    const answer = async (path: string, body: string | Blob, contentType = 'text/plain') => {
      let result: { status: number; body: unknown } | undefined;
      const calls = await callsOf(async () => {
        const response = await storageFetch(server, `/object/${path}`, {
          method: 'POST',
          token: alice.token,
          headers: { 'content-type': contentType },
          body,
        });
        result = { status: response.status, body: await response.json() };
      });
      return { ...result!, trial: calls.includes('write, then rollback') };
    };
    const before = await storedFiles(server);
    const small = 'x'.repeat(100);
    const large = new Blob([bytes(READ_FIRST_MAX_BYTES + 1)]);
    // The row-level security's refusal and the taken name's, each both ways.
    for (const path of [`files/${someoneElse}/a.txt`, `files/${taken}`]) {
      const first = await answer(path, small);
      const tried = await answer(path, large);
      expect(first.trial).toBe(false);
      expect(tried.trial).toBe(true);
      expect(first.status).toBeGreaterThanOrEqual(400);
      expect({ status: first.status, body: first.body }).toEqual({
        status: tried.status,
        body: tried.body,
      });
    }
    // The bucket and its limits (no larger body gets past these to a trial).
    expect(await answer(`nowhere/${alice.id}/a.txt`, small)).toMatchObject({
      status: 400,
      body: { code: 'NoSuchBucket' },
      trial: false,
    });
    expect(await answer(`limited/${alice.id}/a.pdf`, small, 'application/pdf')).toMatchObject({
      status: 400,
      body: { code: 'InvalidMimeType' },
      trial: false,
    });
    expect(await answer(`limited/${alice.id}/a.txt`, 'x'.repeat(1025))).toMatchObject({
      status: 400,
      body: { code: 'EntityTooLarge' },
      trial: false,
    });
    expect(await storedFiles(server)).toEqual(before);
    expect(new TextDecoder().decode(await downloadBytes(taken))).toBe('first');
  });
});

describe('storage: remove and list', () => {
  it('removes objects, returns the removed rows and deletes their files', async () => {
    const paths = [`${alice.id}/rm/a.txt`, `${alice.id}/rm/b.txt`];
    for (const path of paths) await files().upload(path, path);
    const before = (await storedFiles(server)).length;
    const { data, error } = await files().remove([...paths, `${alice.id}/rm/missing.txt`]);
    expect(error).toBeNull();
    expect(data?.map((row) => row.name).sort()).toEqual(paths);
    expect(data?.[0]).toMatchObject({
      bucket_id: 'files',
      owner: alice.id,
      metadata: expect.any(Object),
    });
    expect((await storedFiles(server)).length).toBe(before - 2);
    expect((await files().exists(paths[0]!)).data).toBe(false);
    expect((await files().remove([`${alice.id}/rm/a.txt`])).data).toEqual([]);
  });

  it('deletes a single object by its path', async () => {
    const path = `${alice.id}/rm/single.txt`;
    await files().upload(path, 'single');
    const deleted = await storageFetch(server, `/object/files/${path}`, {
      method: 'DELETE',
      token: alice.token,
    });
    expect(await deleted.json()).toEqual({ message: 'Successfully deleted' });
    expect((await files().exists(path)).data).toBe(false);
    const again = await storageFetch(server, `/object/files/${path}`, {
      method: 'DELETE',
      token: alice.token,
    });
    expect(await again.json()).toMatchObject({ statusCode: '404', code: 'NoSuchKey' });
  });

  it('lists files and folders relative to the prefix, with search, sorting and paging', async () => {
    const root = `${alice.id}/list`;
    for (const name of [
      'b.txt',
      'A.txt',
      'c.txt',
      'sub/one.txt',
      'sub/two.txt',
      'other/deep/x.txt',
    ]) {
      await files().upload(`${root}/${name}`, name);
    }
    const { data, error } = await files().list(root);
    expect(error).toBeNull();
    expect(data!.map((entry) => entry.name)).toEqual(['A.txt', 'b.txt', 'c.txt', 'other', 'sub']);
    const folder = data!.find((entry) => entry.name === 'sub');
    expect(folder).toEqual({
      name: 'sub',
      id: null,
      updated_at: null,
      created_at: null,
      last_accessed_at: null,
      metadata: null,
    });
    const file = data!.find((entry) => entry.name === 'b.txt')!;
    expect(file).toMatchObject({
      id: expect.any(String),
      metadata: { size: 5, mimetype: 'text/plain;charset=UTF-8' },
    });
    expect(file.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect((await files().list(`${root}/`)).data!.map((e) => e.name)).toHaveLength(5);
    expect((await files().list(`${root}/sub`)).data!.map((e) => e.name)).toEqual([
      'one.txt',
      'two.txt',
    ]);
    expect((await files().list(root, { search: 'a' })).data!.map((e) => e.name)).toEqual(['A.txt']);
    expect(
      (await files().list(root, { sortBy: { column: 'name', order: 'desc' } })).data!.map(
        (e) => e.name,
      ),
    ).toEqual(['sub', 'other', 'c.txt', 'b.txt', 'A.txt']);
    expect((await files().list(root, { limit: 2, offset: 1 })).data!.map((e) => e.name)).toEqual([
      'b.txt',
      'c.txt',
    ]);
    const byDate = (await files().list(root, { sortBy: { column: 'created_at', order: 'desc' } }))
      .data!;
    // Folders first (in the requested order of names), then files by the column.
    expect(byDate.slice(0, 2).map((e) => e.name)).toEqual(['sub', 'other']);
    expect(byDate.slice(2).map((e) => e.name)).toEqual(['c.txt', 'A.txt', 'b.txt']);
    // A search for %, _ or \ is literal, not a pattern.
    expect((await files().list(root, { search: '%' })).data).toEqual([]);
  });

  it('refuses a malformed list request', async () => {
    const response = await storageFetch(server, '/object/list/files', {
      method: 'POST',
      token: alice.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 10 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
  });
});

describe('storage: signed and public URLs', () => {
  it('creates a signed URL that works without a token, then expires', async () => {
    const path = `${alice.id}/signed/photo.png`;
    const content = bytes(300);
    await files().upload(path, new Blob([content], { type: 'image/png' }));
    const { data, error } = await files().createSignedUrl(path, 4);
    expect(error).toBeNull();
    expect(data!.signedUrl).toMatch(
      new RegExp(
        `^${server.url}/storage/v1/object/sign/files/${path}\\?token=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`,
      ),
    );
    const response = await fetch(data!.signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(content);
    const download = await fetch(`${data!.signedUrl}&download=`);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment/);
    await download.arrayBuffer();

    // Wait for the token's own expiry (to the second), not a guess of it.
    const token = new URL(data!.signedUrl).searchParams.get('token')!;
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      exp: number;
    };
    expect(exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(4);
    await sleep(exp * 1000 - Date.now() + 100);
    const expired = await fetch(data!.signedUrl);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      statusCode: '400',
      code: 'InvalidJWT',
      error: 'InvalidJWT',
      message: '"exp" claim timestamp check failed',
    });
  });

  it('refuses a signed URL used for another object, or with a changed or foreign token', async () => {
    const path = `${alice.id}/signed/a.txt`;
    const other = `${alice.id}/signed/b.txt`;
    await files().upload(path, 'a');
    await files().upload(other, 'b');
    const { data } = await files().createSignedUrl(path, 600);
    const token = new URL(data!.signedUrl).searchParams.get('token')!;

    const wrongPath = await storageFetch(server, `/object/sign/files/${other}?token=${token}`, {
      token: null,
    });
    expect(await wrongPath.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });

    // Claims rewritten (a later exp) without the key: the signature no longer matches.
    const [header, , signature] = token.split('.');
    const claims = { url: `files/${path}`, scope: 'download', iat: 1, exp: 4_000_000_000 };
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    const forged = await storageFetch(server, `/object/sign/files/${path}?token=${tampered}`, {
      token: null,
    });
    expect(await forged.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT' });

    // A token signed with the API's JWT secret (an access token's key) is not a URL signature.
    const apiSigned = signJwt(claims, server.keys.jwtSecret);
    const wrongKey = await storageFetch(server, `/object/sign/files/${path}?token=${apiSigned}`, {
      token: null,
    });
    expect(await wrongKey.json()).toMatchObject({ code: 'InvalidJWT' });

    // A correctly signed token for an upload is not one for a download.
    const uploadScope = signJwt(
      { ...claims, scope: 'upload' },
      urlSigningKey(server.keys.jwtSecret),
    );
    const wrongScope = await storageFetch(
      server,
      `/object/sign/files/${path}?token=${uploadScope}`,
      {
        token: null,
      },
    );
    expect(await wrongScope.json()).toMatchObject({ code: 'InvalidSignature' });

    const noToken = await storageFetch(server, `/object/sign/files/${path}`, { token: null });
    expect(noToken.status).toBe(400);
  });

  it('creates several signed URLs, with an error for objects it cannot see', async () => {
    const a = `${alice.id}/many/a.txt`;
    await files().upload(a, 'a');
    const { data, error } = await files().createSignedUrls([a, `${alice.id}/many/missing.txt`], 60);
    expect(error).toBeNull();
    expect(data![0]).toMatchObject({
      error: null,
      path: a,
      signedUrl: expect.stringContaining('token='),
    });
    expect(data![1]).toMatchObject({
      error: 'Either the object does not exist or you do not have access to it',
      signedUrl: null,
    });
    expect(await (await fetch(data![0]!.signedUrl!)).text()).toBe('a');
  });

  it('serves public URLs of public buckets only', async () => {
    const shared = alice.client.storage.from('shared');
    const path = `${alice.id}/logo.png`;
    await shared.upload(path, new Blob([bytes(64)], { type: 'image/png' }));
    const publicUrl = shared.getPublicUrl(path).data.publicUrl;
    const response = await fetch(publicUrl);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes(64));
    // Public buckets also serve the plain object path and its info without a token.
    expect((await storageFetch(server, `/object/shared/${path}`, { token: null })).status).toBe(
      200,
    );
    const info = await storageFetch(server, `/object/info/public/shared/${path}`, { token: null });
    expect(await info.json()).toMatchObject({ name: path, size: 64, content_type: 'image/png' });

    const privatePath = `${alice.id}/private.txt`;
    await files().upload(privatePath, 'secret');
    const refused = await fetch(files().getPublicUrl(privatePath).data.publicUrl);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchBucket',
      error: 'Bucket not found',
      message: 'Bucket not found',
    } satisfies StorageErrorBody);
    const noToken = await storageFetch(server, `/object/files/${privatePath}`, { token: null });
    expect(await noToken.json()).toMatchObject({ code: 'NoSuchBucket' });
  });
});

describe('storage: signed upload URLs', () => {
  it('lets anyone holding the URL upload once, as the user who made it', async () => {
    const path = `${alice.id}/dropped/form.pdf`;
    const { data, error } = await files().createSignedUploadUrl(path);
    expect(error).toBeNull();
    expect(data).toEqual({
      signedUrl: expect.stringContaining('token='),
      token: expect.any(String),
      path,
    });

    const anonymous = server.anon().storage.from('files');
    const content = bytes(2000);
    const uploaded = await anonymous.uploadToSignedUrl(
      path,
      data!.token,
      new Blob([content], { type: 'application/pdf' }),
    );
    expect(uploaded.error).toBeNull();
    expect(uploaded.data).toMatchObject({ path, fullPath: `files/${path}` });
    expect(await downloadBytes(path)).toEqual(content);
    const removed = await files().remove([path]);
    expect(removed.data?.[0]).toMatchObject({ owner: alice.id, owner_id: alice.id });

    await files().upload(path, 'taken');
    const again = await anonymous.uploadToSignedUrl(path, data!.token, 'replace?');
    expect(again.error).toMatchObject({ statusCode: '409' });
    const elsewhere = await anonymous.uploadToSignedUrl(`${alice.id}/other.pdf`, data!.token, 'x');
    expect(elsewhere.error).toMatchObject({ statusCode: '400', message: 'Invalid signature' });
  });

  it('checks the rights of the user who asks for the URL', async () => {
    const bob = testUser(server);
    const refused = await bob.client.storage
      .from('files')
      .createSignedUploadUrl(`${alice.id}/planted.txt`);
    expect(refused.error).toMatchObject({ statusCode: '403' });
    const upsert = await files().createSignedUploadUrl(`${alice.id}/dup/file.txt`, {
      upsert: true,
    });
    const replaced = await server
      .anon()
      .storage.from('files')
      .uploadToSignedUrl(`${alice.id}/dup/file.txt`, upsert.data!.token, 'fourth', {
        upsert: true,
      });
    expect(replaced.error).toBeNull();
    expect(new TextDecoder().decode(await downloadBytes(`${alice.id}/dup/file.txt`))).toBe(
      'fourth',
    );
  });
});

describe('storage: move and copy', () => {
  it('moves an object to a new name, keeping its bytes', async () => {
    const from = `${alice.id}/move/old.txt`;
    const to = `${alice.id}/move/new.txt`;
    await files().upload(from, 'moving');
    const { error } = await files().move(from, to);
    expect(error).toBeNull();
    expect((await files().exists(from)).data).toBe(false);
    expect(new TextDecoder().decode(await downloadBytes(to))).toBe('moving');
    const missing = await files().move(from, `${alice.id}/move/again.txt`);
    expect(missing.error).toMatchObject({ statusCode: '404' });
  });

  it('copies an object into its own new file', async () => {
    const from = `${alice.id}/copy/src.txt`;
    const to = `${alice.id}/copy/dst.txt`;
    await files().upload(from, 'copied');
    const before = (await storedFiles(server)).length;
    const { data, error } = await files().copy(from, to);
    expect(error).toBeNull();
    expect(data).toEqual({ path: `files/${to}` });
    expect((await storedFiles(server)).length).toBe(before + 1);
    await files().remove([from]);
    expect(new TextDecoder().decode(await downloadBytes(to))).toBe('copied');
    const again = await files().copy(to, to);
    expect(again.error).toMatchObject({ statusCode: '409' });
  });
});
