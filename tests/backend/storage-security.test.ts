import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { accessTokenFor } from '../support/tokens.ts';
import {
  createStorageFixtures,
  filesUnder,
  storageFetch,
  storedFiles,
  testUser,
  type StorageErrorBody,
  type TestUser,
} from './storage-helpers.ts';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
const secret = 'alice-only secret';

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  await createStorageFixtures(server);
  await server.db.serverWork().exec(`
    insert into storage.buckets (id, name) values ('dropbox', 'dropbox'), ('audited', 'audited');
    -- Anyone signed in may drop files here, nobody may read or change them.
    create policy "users drop files" on storage.objects
      for insert to authenticated with check (bucket_id = 'dropbox');
    -- Readable only while listing: the operation the storage API names decides.
    create policy "listing only" on storage.objects
      for select to authenticated
      using (bucket_id = 'audited' and current_setting('storage.operation', true) = 'storage.object.list');
  `);
  alice = testUser(server);
  bob = testUser(server);
  await alice.client.storage.from('files').upload(`${alice.id}/secret.txt`, secret);
});
afterAll(async () => {
  await server?.close();
});

const files = (user: TestUser) => user.client.storage.from('files');
const alicePath = () => `${alice.id}/secret.txt`;

/** An HTTP request with the path exactly as given: no client-side URL normalisation. */
function rawRequest(
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, method, path: rawPath, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('storage: row-level security decides every object operation', () => {
  it("hides another user's object from download, info, exists, signing and listing", async () => {
    expect((await files(bob).download(alicePath())).error).toMatchObject({ statusCode: '404' });
    expect((await files(bob).info(alicePath())).error).toMatchObject({ statusCode: '404' });
    expect((await files(bob).exists(alicePath())).data).toBe(false);
    expect((await files(bob).createSignedUrl(alicePath(), 60)).error).toMatchObject({
      statusCode: '404',
    });
    const many = await files(bob).createSignedUrls([alicePath()], 60);
    expect(many.data?.[0]).toMatchObject({ signedUrl: null, error: expect.any(String) });
    expect((await files(bob).list(alice.id)).data).toEqual([]);
    expect((await files(bob).list('')).data).toEqual([]);
    const ownListing = await files(alice).list('');
    expect(ownListing.data?.map((entry) => entry.name)).toEqual([alice.id]);
  });

  it("lets nobody remove, overwrite, move or copy another user's object", async () => {
    expect((await files(bob).remove([alicePath()])).data).toEqual([]);
    const overwrite = await files(bob).upload(alicePath(), 'pwned', { upsert: true });
    expect(overwrite.error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect((await files(bob).update(alicePath(), 'pwned')).error).toMatchObject({
      statusCode: '403',
    });
    expect((await files(bob).upload(`${alice.id}/planted.txt`, 'x')).error).toMatchObject({
      statusCode: '403',
    });
    expect((await files(bob).move(alicePath(), `${bob.id}/stolen.txt`)).error).toMatchObject({
      statusCode: '404',
    });
    expect((await files(bob).copy(alicePath(), `${bob.id}/stolen.txt`)).error).toMatchObject({
      statusCode: '404',
    });
    await files(bob).upload(`${bob.id}/mine.txt`, 'bob');
    expect(
      (await files(bob).move(`${bob.id}/mine.txt`, `${alice.id}/mine.txt`)).error,
    ).toMatchObject({
      statusCode: '403',
    });
    const { data } = await files(alice).download(alicePath());
    expect(await data?.text()).toBe(secret);
  });

  it('refuses the anonymous role and tokens it did not sign or that expired', async () => {
    const anon = server.anon().storage.from('files');
    expect((await anon.upload('anything.txt', 'x')).error).toMatchObject({ statusCode: '403' });
    expect((await anon.download(alicePath())).error).toMatchObject({ statusCode: '404' });

    const forged = accessTokenFor(
      { ...server, keys: { ...server.keys, jwtSecret: 'k'.repeat(40) } },
      alice.id,
    );
    const expired = accessTokenFor(server, alice.id, { exp: Math.floor(Date.now() / 1000) - 3600 });
    for (const token of [forged, expired, 'not-a-jwt']) {
      const upload = await storageFetch(server, `/object/files/${alice.id}/x.txt`, {
        method: 'POST',
        token,
        body: 'x',
      });
      expect(upload.status).toBe(400);
      expect(await upload.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
      const download = await storageFetch(server, `/object/files/${alicePath()}`, { token });
      expect(await download.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
      const authenticated = await storageFetch(
        server,
        `/object/authenticated/files/${alicePath()}`,
        {
          token,
        },
      );
      expect(await authenticated.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
    }
    const noToken = await storageFetch(server, '/object/list/files', {
      method: 'POST',
      token: null,
      body: JSON.stringify({ prefix: '' }),
    });
    expect(await noToken.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
  });

  it('needs only INSERT rights to upload, and UPDATE and SELECT as well to upsert', async () => {
    const dropbox = alice.client.storage.from('dropbox');
    expect((await dropbox.upload('note.txt', 'dropped')).error).toBeNull();
    expect((await dropbox.download('note.txt')).error).toMatchObject({ statusCode: '404' });
    expect((await dropbox.upload('note.txt', 'again', { upsert: true })).error).toMatchObject({
      statusCode: '403',
    });
    expect((await dropbox.remove(['note.txt'])).data).toEqual([]);
  });

  it('sets storage.operation for the policies to read', async () => {
    await server.service().storage.from('audited').upload('report.txt', 'audited');
    const audited = alice.client.storage.from('audited');
    expect((await audited.list('')).data?.map((entry) => entry.name)).toEqual(['report.txt']);
    expect((await audited.download('report.txt')).error).toMatchObject({ statusCode: '404' });
  });
});

describe('storage: object names cannot reach the file system', () => {
  const token = () => alice.token;
  const auth = () => ({ authorization: `Bearer ${token()}`, apikey: server.keys.anonKey });

  it('refuses traversal, absolute and control-character names with InvalidKey or a 4xx', async () => {
    const outside = await filesUnder(server.dataDir);
    const attempts = [
      `/storage/v1/object/files/${alice.id}/../../../jwt-secret`,
      `/storage/v1/object/files/${alice.id}/..%2f..%2f..%2fjwt-secret`,
      `/storage/v1/object/files/%2e%2e%2f%2e%2e%2fjwt-secret`,
      `/storage/v1/object/files/%2e%2e/%2e%2e/jwt-secret`,
      `/storage/v1/object/files/${alice.id}/%2e%2e`,
      `/storage/v1/object/files/${alice.id}/.%2e/x`,
      `/storage/v1/object/files/${alice.id}\\..\\..\\jwt-secret`,
      `/storage/v1/object/files/${alice.id}%5c..%5c..%5cjwt-secret`,
      `/storage/v1/object/files//etc/passwd`,
      `/storage/v1/object/files/%2fetc%2fpasswd`,
      `/storage/v1/object/files/${alice.id}/x%00.txt`,
      `/storage/v1/object/files/${alice.id}/x%0d%0aSet-Cookie:%20a=b`,
      `/storage/v1/object/files/${alice.id}/%C0%AE%C0%AE/x`,
      `/storage/v1/object/files/${alice.id}/x%ZZ`,
      `/storage/v1/object/..%2f..%2fjwt-secret/x`,
      `/storage/v1/object/files/${alice.id}/${'a'.repeat(1100)}`,
    ];
    for (const attempt of attempts) {
      for (const method of ['POST', 'GET', 'PUT', 'DELETE']) {
        const response = await rawRequest(
          method,
          attempt,
          auth(),
          method === 'POST' ? 'x' : undefined,
        );
        expect(response.status, `${method} ${attempt}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${method} ${attempt}`).toBeLessThan(500);
        expect(response.body).not.toContain(server.keys.jwtSecret);
      }
    }
    const invalidKey = await rawRequest('POST', attempts[1]!, auth(), 'x');
    expect(JSON.parse(invalidKey.body)).toEqual({
      statusCode: '400',
      code: 'InvalidKey',
      error: 'InvalidKey',
      message: `Invalid key: ${alice.id}/../../../jwt-secret`,
    } satisfies StorageErrorBody);
    // Nothing was written anywhere: not outside the storage directory, not inside it.
    expect(await filesUnder(server.dataDir)).toEqual(outside);
  });

  it('refuses traversal in move, copy, list and remove bodies', async () => {
    const bodies: [string, string, Record<string, unknown>][] = [
      [
        'POST',
        '/object/move',
        { bucketId: 'files', sourceKey: alicePath(), destinationKey: '../../x' },
      ],
      [
        'POST',
        '/object/copy',
        { bucketId: 'files', sourceKey: alicePath(), destinationKey: `${alice.id}/../x` },
      ],
      [
        'POST',
        '/object/copy',
        { bucketId: '..', sourceKey: alicePath(), destinationKey: `${alice.id}/y` },
      ],
      [
        'POST',
        '/object/move',
        { bucketId: 'files', sourceKey: alicePath(), destinationKey: `/${alice.id}/x` },
      ],
    ];
    for (const [method, route, body] of bodies) {
      const response = await storageFetch(server, route, {
        method,
        token: token(),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, route).toBe(400);
      expect((await response.json()).code).toMatch(/^(InvalidKey|NoSuchBucket)$/);
    }
    const list = await files(alice).list('../../');
    expect(list.data).toEqual([]);
    expect((await files(alice).download(alicePath())).error).toBeNull();
  });

  it('stores a doubly encoded name literally, as a name and nothing more', async () => {
    const before = await filesUnder(server.dataDir);
    const response = await rawRequest(
      'POST',
      `/storage/v1/object/files/${alice.id}/%252e%252e%252fjwt-secret`,
      { ...auth(), 'content-type': 'text/plain' },
      'literal',
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).Key).toBe(`files/${alice.id}/%2e%2e%2fjwt-secret`);
    const after = await filesUnder(server.dataDir);
    const added = after.filter((file) => !before.includes(file));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^storage\/objects\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    const { data } = await files(alice).list(alice.id);
    expect(data?.map((entry) => entry.name)).toContain('%2e%2e%2fjwt-secret');
  });
});

describe('storage: files never render as active content in the API origin', () => {
  const upload = async (name: string, body: string, type: string) => {
    const path = `${alice.id}/render/${name}`;
    const { error } = await files(alice).upload(path, new Blob([body], { type }), { upsert: true });
    expect(error).toBeNull();
    const response = await storageFetch(server, `/object/files/${path}`, { token: alice.token });
    await response.arrayBuffer();
    return response.headers;
  };

  it.each([
    ['logo.svg', 'image/svg+xml'],
    ['page.html', 'text/html'],
    ['page.xhtml', 'application/xhtml+xml'],
    ['data.xml', 'text/xml'],
    ['app.js', 'text/javascript'],
    ['shout.svg', 'Image/SVG+XML; charset=utf-8'],
    ['unknown.bin', 'application/octet-stream'],
  ])('serves %s (%s) as a sandboxed attachment', async (name, type) => {
    const headers = await upload(
      name,
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      type,
    );
    // (Blob types arrive lower-cased.)
    expect(headers.get('content-type')).toBe(type.toLowerCase());
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+"/);
    const csp = headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('sandbox');
    expect(csp).not.toContain('script-src');
  });

  it('serves images, audio, video and plain text inline, frameable by the SPA only', async () => {
    for (const [name, type] of [
      ['photo.png', 'image/png'],
      ['photo.jpg', 'image/jpeg'],
      ['song.mp3', 'audio/mpeg'],
      ['film.webm', 'video/webm'],
      ['notes.txt', 'text/plain;charset=UTF-8'],
    ]) {
      const headers = await upload(name!, 'bytes', type!);
      expect(headers.get('content-disposition'), name).toMatch(/^inline; /);
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      const csp = headers.get('content-security-policy')!;
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('sandbox');
    }
  });

  it("serves PDFs inline without sandbox, which Chrome's viewer refuses", async () => {
    const headers = await upload('paper.pdf', '%PDF-1.4', 'application/pdf');
    expect(headers.get('content-type')).toBe('application/pdf');
    expect(headers.get('content-disposition')).toMatch(/^inline; /);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    const csp = headers.get('content-security-policy')!;
    expect(csp).toBe("frame-ancestors 'self'");
  });

  it('keeps the same rules on signed and public URLs', async () => {
    await upload('signed.svg', '<svg/>', 'image/svg+xml');
    const { data } = await files(alice).createSignedUrl(`${alice.id}/render/signed.svg`, 60);
    const signed = await fetch(data!.signedUrl);
    expect(signed.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(signed.headers.get('content-security-policy')).toContain('sandbox');

    const shared = alice.client.storage.from('shared');
    await shared.upload(`${alice.id}/page.html`, new Blob(['<h1>hi</h1>'], { type: 'text/html' }));
    const publicResponse = await fetch(shared.getPublicUrl(`${alice.id}/page.html`).data.publicUrl);
    expect(publicResponse.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(publicResponse.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('keeps JSON answers unframeable', async () => {
    const response = await storageFetch(server, `/object/files/${alice.id}/none.txt`, {
      token: alice.token,
    });
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('storage: bucket limits, and no partial file after a refused upload', () => {
  const limited = () => alice.client.storage.from('limited');

  it('refuses objects over the size limit, whatever the body form, and keeps no file', async () => {
    const before = await storedFiles(server);
    const tooLarge = new Uint8Array(2048).fill(65);
    const expected = {
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    };
    const multipart = await limited().upload(
      `${alice.id}/big.txt`,
      new Blob([tooLarge], { type: 'text/plain' }),
    );
    expect(multipart.error).toMatchObject(expected);
    const raw = await limited().upload(`${alice.id}/big.txt`, Buffer.from(tooLarge), {
      contentType: 'text/plain',
    });
    expect(raw.error).toMatchObject(expected);
    // A streamed body declares no length: the server must count and stop.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(512).fill(66));
        controller.close();
      },
    });
    const streamed = await storageFetch(server, `/object/limited/${alice.id}/big.txt`, {
      method: 'POST',
      token: alice.token,
      headers: { 'content-type': 'text/plain' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(400);
    expect(await streamed.json()).toEqual({
      statusCode: '413',
      code: 'EntityTooLarge',
      error: 'Payload too large',
      message: 'The object exceeded the maximum allowed size',
    } satisfies StorageErrorBody);
    expect(await storedFiles(server)).toEqual(before);
    expect((await limited().exists(`${alice.id}/big.txt`)).data).toBe(false);

    const exact = await limited().upload(
      `${alice.id}/exact.txt`,
      new Blob([new Uint8Array(1024)], { type: 'text/plain' }),
    );
    expect(exact.error).toBeNull();
  });

  it('refuses a body declared over the 50 MiB of supabase/config.toml before reading it', async () => {
    const { hostname, port } = new URL(server.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: `/storage/v1/object/files/${alice.id}/huge.bin`,
          headers: {
            authorization: `Bearer ${alice.token}`,
            'content-type': 'application/octet-stream',
            'content-length': String(50 * 1024 * 1024 + 1),
          },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => {
            request.destroy();
            resolve({ status: response.statusCode ?? 0, body });
          });
        },
      );
      request.on('error', reject);
      // A few bytes of the announced 50 MiB: the answer must not wait for the rest.
      request.write(Buffer.alloc(1024));
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: '413', code: 'EntityTooLarge' });
  });

  it('refuses MIME types the bucket does not allow', async () => {
    const refused = await limited().upload(
      `${alice.id}/doc.pdf`,
      new Blob(['%PDF'], { type: 'application/pdf' }),
    );
    expect(refused.error).toMatchObject({
      statusCode: '415',
      message: 'mime type application/pdf is not supported',
    });
    for (const [name, type] of [
      ['a.png', 'image/png'],
      ['b.txt', 'text/plain;charset=UTF-8'],
      ['c.csv', 'text/csv'],
    ]) {
      expect(
        (await limited().upload(`${alice.id}/${name}`, new Blob(['x'], { type: type! }))).error,
        name,
      ).toBeNull();
    }
    const badType = await storageFetch(server, `/object/files/${alice.id}/bad-type.txt`, {
      method: 'POST',
      token: alice.token,
      headers: { 'content-type': 'not a mime type' },
      body: 'x',
    });
    expect(await badType.json()).toMatchObject({ statusCode: '415', code: 'InvalidMimeType' });
  });

  it('keeps no file after an upload refused by row-level security', async () => {
    const before = await storedFiles(server);
    const big = Buffer.alloc(3 * 1024 * 1024, 1);
    const { error } = await files(bob).upload(`${alice.id}/intrusion.bin`, big, {
      contentType: 'application/octet-stream',
    });
    expect(error).toMatchObject({ statusCode: '403' });
    expect(await storedFiles(server)).toEqual(before);
  });

  it('keeps no file and no row when the client breaks off mid-upload', async () => {
    const before = await storedFiles(server);
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        if (sent === 3) {
          controller.abort();
          return;
        }
        sent++;
        stream.enqueue(new Uint8Array(256 * 1024).fill(sent));
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    const upload = storageFetch(server, `/object/files/${alice.id}/aborted.bin`, {
      method: 'POST',
      token: alice.token,
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(4 * 1024 * 1024),
      },
      body,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit);
    await expect(upload).rejects.toThrow();
    // The server notices the broken connection on its own time.
    for (
      let i = 0;
      i < 50 && (await storedFiles(server)).some((file) => file.endsWith('.part'));
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await storedFiles(server)).toEqual(before);
    expect((await files(alice).exists(`${alice.id}/aborted.bin`)).data).toBe(false);
  });

  it('keeps no file after a multipart body that ends before its closing boundary', async () => {
    const before = await storedFiles(server);
    const truncated =
      '--b0undary\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n' +
      '--b0undary\r\nContent-Disposition: form-data; name=""; filename="x.txt"\r\n' +
      'Content-Type: text/plain\r\n\r\nhalf of the fi';
    const response = await storageFetch(server, `/object/files/${alice.id}/truncated.txt`, {
      method: 'POST',
      token: alice.token,
      headers: { 'content-type': 'multipart/form-data; boundary=b0undary' },
      body: truncated,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
    expect(await storedFiles(server)).toEqual(before);
  });

  it('stores files only under storage/objects, named by version', async () => {
    const stored = await filesUnder(path.join(server.dataDir, 'storage'));
    expect(stored.length).toBeGreaterThan(0);
    for (const file of stored)
      expect(file).toMatch(/^objects\/([0-9a-f]{2})\/\1[0-9a-f]{6}-[0-9a-f-]{27}$/);
  });
});
