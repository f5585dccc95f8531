import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createStorageFixtures, testUser } from './storage-helpers.ts';

/**
 * Security headers on everything the embedded backend serves (issue 8): the app's pages and
 * assets, the API's answers, and stored files.
 */
let server: TestServer;
let distDir: string;

beforeAll(async () => {
  // A stand-in build: the headers come from the server, not from what the page contains.
  distDir = await mkdtemp(path.join(os.tmpdir(), 'steward-dist-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(
    path.join(distDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  await writeFile(path.join(distDir, 'assets', 'index-abc.js'), 'console.log("app");');
  server = await startTestServer({ schema: 'platform', env: { DIST_DIR: distDir } });
  await createStorageFixtures(server);
});

afterAll(async () => {
  await server?.close();
  await rm(distDir, { recursive: true, force: true });
});

function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('pages and assets of the app', () => {
  it.each(['/', '/documents', '/operations/legal', '/invite/abc'])(
    '%s has a Content-Security-Policy without inline script, and the other headers',
    async (route) => {
      const response = await fetch(server.url + route);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      // Previews are framed from this origin only: no file goes to Office Online.
      expect(csp.get('frame-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    },
  );

  it('serves hashed assets with nosniff and a long cache, and missing assets as 404', async () => {
    const asset = await fetch(`${server.url}/assets/index-abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await fetch(`${server.url}/assets/missing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('never serves files from outside the build', async () => {
    for (const attempt of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const response = await fetch(server.url + attempt);
      const body = await response.text();
      expect(body).not.toContain('"name": "steward"');
    }
  });
});

describe('API answers', () => {
  it.each([
    '/config.json',
    '/auth/v1/settings',
    '/auth/v1/user',
    '/rest/v1/missing_table',
    '/storage/v1/bucket',
    '/functions/v1/missing',
  ])('%s is never a page to render or frame', async (route) => {
    const response = await fetch(server.url + route, { headers: { apikey: server.keys.anonKey } });
    expect(response.status).toBeLessThan(500);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});

describe('stored files', () => {
  it('serves every file with nosniff, and active content only as a sandboxed attachment', async () => {
    const user = testUser(server);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const html = '<html><script>alert(1)</script></html>';
    const files: Array<[string, string, string]> = [
      ['logo.svg', svg, 'image/svg+xml'],
      ['page.html', html, 'text/html'],
      ['notes.txt', 'hello', 'text/plain;charset=utf-8'],
      // Without a charset the browser guesses the encoding: not on the inline list.
      ['guess.txt', 'hello', 'text/plain'],
    ];
    for (const [name, body, type] of files) {
      const { error } = await user.client.storage
        .from('files')
        .upload(`${user.id}/${name}`, new Blob([body], { type }), { contentType: type });
      expect(error).toBeNull();
    }
    for (const [name, , type] of files) {
      const response = await fetch(`${server.url}/storage/v1/object/files/${user.id}/${name}`, {
        headers: { Authorization: `Bearer ${user.token}`, apikey: server.keys.anonKey },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('default-src')).toEqual(["'none'"]);
      if (type === 'text/plain;charset=utf-8') {
        expect(response.headers.get('content-disposition') ?? '').not.toContain('attachment');
      } else {
        expect(response.headers.get('content-disposition')).toContain('attachment');
        expect(csp.has('sandbox')).toBe(true);
      }
    }
  });
});

describe('compression of the app', () => {
  it('sends text assets compressed when the browser accepts it, with the same headers', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await fetch(`${server.url}/assets/index-abc.js`, {
        headers: { 'Accept-Encoding': accept },
      });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toContain('Accept-Encoding');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      // fetch decodes the body: the bytes are the file's.
      expect(await response.text()).toBe('console.log("app");');
    }
    const plain = await fetch(`${server.url}/assets/index-abc.js`, {
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe('console.log("app");');
  });
});
