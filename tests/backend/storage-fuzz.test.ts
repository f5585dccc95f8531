import fc from 'fast-check';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { accessTokenFor } from '../support/tokens.ts';
import {
  createStorageFixtures,
  filesUnder,
  storageFetch,
  testUser,
  type TestUser,
} from './storage-helpers.ts';

// Thousands of random and hostile requests at /storage/v1. Whatever arrives: never a 5xx, never
// a file outside DATA_DIR/storage (nor a badly named one inside), never an object outside the
// caller's row-level security view, and afterwards every stored file has its row and the other
// way round.

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let outsideStorage: string[];
const TIME_LIMIT_MS = 40_000;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  await createStorageFixtures(server);
  alice = testUser(server);
  bob = testUser(server);
  for (const user of [alice, bob]) {
    const files = user.client.storage.from('files');
    for (const name of ['a.txt', 'docs/b.png', 'docs/deep/c.pdf']) {
      await files.upload(`${user.id}/${name}`, `${user.id} ${name}`);
    }
  }
  outsideStorage = outsideStorageAndDatabase(await filesUnder(server.dataDir));
});
afterAll(async () => {
  await server?.close();
});

/** Files that are neither stored objects nor the embedded database's own (`db/`, its lock). */
function outsideStorageAndDatabase(files: string[]): string[] {
  return files.filter(
    (file) => !file.startsWith('storage/') && !file.startsWith('db/') && file !== 'db.lock',
  );
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request exactly as generated: raw path, any method, any header the HTTP grammar allows. */
function rawRequest(
  method: string,
  rawPath: string,
  headers: Record<string, string>,
  body: Buffer | null,
): Promise<RawResponse> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, method, path: rawPath, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

const names = () => [alice.id, bob.id, 'docs', 'deep', 'a.txt', 'b.png', 'c.pdf', 'new.txt'];

const hostileSegments = [
  '..',
  '.',
  '',
  '%2e%2e',
  '%2E%2e',
  '..%2f',
  '%2e%2e%2f',
  '%252e%252e%252f',
  '..%5c',
  '%5c',
  '\\',
  '..\\..',
  '%00',
  '%0d%0a',
  '%2f',
  '%2F%2F',
  '%C0%AE%C0%AE',
  '%ZZ',
  '%',
  '%e2%80%ae',
  'e%CC%81',
  '~',
  'jwt-secret',
  'db',
  'storage',
  'objects',
  '.part',
  '?x=1',
  '#frag',
  ';',
  'a%20b',
];

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileSegments) },
  { weight: 6, arbitrary: fc.constant(null).chain(() => fc.constantFrom(...names())) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((s) => encodeURIComponent(s)),
  },
);
const objectPath = fc
  .array(segment, { minLength: 0, maxLength: 5 })
  .map((parts) => parts.join('/'));
const bucket = fc.constantFrom(
  'files',
  'shared',
  'limited',
  'nope',
  '..',
  '%2e%2e',
  '',
  'list',
  'sign',
);
const route = fc.constantFrom(
  '/object/',
  '/object/',
  '/object/',
  '/object/authenticated/',
  '/object/public/',
  '/object/sign/',
  '/object/info/',
  '/object/list/',
  '/object/upload/sign/',
  '/bucket/',
  '/render/image/authenticated/',
);
const fixedRoute = fc.constantFrom('/object/move', '/object/copy', '/bucket', '/object/list/files');
const method = fc.constantFrom(
  'GET',
  'GET',
  'HEAD',
  'POST',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
);
const who = fc.constantFrom('alice', 'bob', 'anon', 'service', 'none', 'garbage', 'expired');

const printable = fc
  .string({ unit: 'binary-ascii', maxLength: 40 })
  .map((s) => s.replace(/[^\x20-\x7e]/g, ''));
const contentType = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'application/json',
    'application/octet-stream',
    'image/svg+xml',
    'multipart/form-data; boundary=XYZ',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary="a b"',
    'image/png',
    'text/html; charset=utf-8',
  ),
  printable,
);
const optionalHeaders = fc.record(
  {
    'content-type': contentType,
    'x-upsert': fc.constantFrom('true', 'false', 'yes', ''),
    'cache-control': printable,
    'x-metadata': fc.oneof(
      printable,
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64')),
    ),
    range: fc.oneof(
      printable,
      fc.tuple(fc.nat(100), fc.nat(100)).map(([a, b]) => `bytes=${a}-${b}`),
      fc.constantFrom(
        'bytes=-5',
        'bytes=0-',
        'bytes=1-0',
        'bytes=0-1,3-4',
        'bytes=99999999999999999999-',
      ),
    ),
    'if-none-match': printable,
    'if-range': printable,
  },
  { requiredKeys: [] },
);

/** Multipart bodies: valid, truncated, with the boundary inside the content, and garbage. */
const multipartBody = fc
  .record({
    fields: fc.array(
      fc.tuple(fc.constantFrom('cacheControl', 'metadata', 'contentType', 'x', ''), printable),
      {
        maxLength: 4,
      },
    ),
    filename: fc.option(fc.constantFrom('a.txt', '', '../../x', 'é.png'), { nil: undefined }),
    partType: fc.option(contentType, { nil: undefined }),
    content: fc.uint8Array({ maxLength: 600 }),
    cut: fc.option(fc.nat(800), { nil: undefined }),
    closing: fc.boolean(),
  })
  .map(({ fields, filename, partType, content, cut, closing }) => {
    const parts: Buffer[] = [];
    for (const [name, value] of fields) {
      parts.push(
        Buffer.from(`--XYZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    }
    const disposition = filename === undefined ? '' : `; filename="${filename}"`;
    parts.push(
      Buffer.from(
        `--XYZ\r\nContent-Disposition: form-data; name=""${disposition}\r\n` +
          (partType ? `Content-Type: ${partType}\r\n` : '') +
          '\r\n',
      ),
      Buffer.from(content),
      Buffer.from(closing ? '\r\n--XYZ--\r\n' : '\r\n--XY'),
    );
    const whole = Buffer.concat(parts);
    return cut === undefined ? whole : whole.subarray(0, cut);
  });

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      prefix: fc.oneof(objectPath, fc.jsonValue({ maxDepth: 1 })),
      search: fc.oneof(printable, fc.constantFrom('%', '_', '\\')),
      limit: fc.oneof(fc.integer(), fc.constant('10'), fc.double()),
      offset: fc.oneof(fc.integer(), fc.constant(null)),
      sortBy: fc.oneof(
        fc.record({
          column: fc.constantFrom('name', 'created_at', 'id; drop table x', ''),
          order: fc.constantFrom('asc', 'desc', 'sideways'),
        }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      prefixes: fc.array(objectPath.map(decodeURIComponentSafe), { maxLength: 4 }),
      paths: fc.array(objectPath.map(decodeURIComponentSafe), { maxLength: 4 }),
      expiresIn: fc.oneof(fc.integer(), fc.double(), fc.constant('60')),
      bucketId: bucket,
      sourceKey: objectPath.map(decodeURIComponentSafe),
      destinationKey: objectPath.map(decodeURIComponentSafe),
      destinationBucket: bucket,
      name: fc.oneof(bucket, printable),
      id: fc.oneof(bucket, printable),
      public: fc.oneof(fc.boolean(), fc.constant('yes')),
      file_size_limit: fc.oneof(fc.integer(), fc.constantFrom('1MB', '9GB', 'lots', -1)),
      allowed_mime_types: fc.oneof(
        fc.array(fc.oneof(printable, fc.constantFrom('image/*', '*/*'))),
        printable,
      ),
    },
    { requiredKeys: [] },
  ),
);
const body = fc.oneof(
  fc.constant(null),
  fc.uint8Array({ maxLength: 3000 }).map((bytes) => Buffer.from(bytes)),
  jsonBody.map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
  multipartBody,
);

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function tokenOf(caller: string): string | null {
  switch (caller) {
    case 'alice':
      return alice.token;
    case 'bob':
      return bob.token;
    case 'anon':
      return server.keys.anonKey;
    case 'service':
      return server.keys.serviceRoleKey;
    case 'garbage':
      return 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl';
    case 'expired':
      return accessTokenFor(server, alice.id, { exp: Math.floor(Date.now() / 1000) - 3600 });
    default:
      return null;
  }
}

const PRIVATE_BUCKETS = new Set(['files', 'limited']);

function jsonOf(data: Buffer | null): Record<string, unknown> | unknown[] | null {
  try {
    const value: unknown = JSON.parse(data?.toString('utf8') ?? '');
    return typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A 2xx answer to alice or bob must only involve objects of their own folder in the private
 * buckets (the folder rule of the fixtures' policies): a download, info, signature, upload,
 * removal, move, copy or listing that reaches the other user's folder is a leak.
 */
function checkRlsView(
  caller: string,
  httpMethod: string,
  requestPath: string,
  payload: Buffer | null,
  response: RawResponse,
): void {
  if (caller !== 'alice' && caller !== 'bob') return;
  if (response.status < 200 || response.status >= 300) return;
  const user = caller === 'alice' ? alice : bob;
  const other = caller === 'alice' ? bob : alice;
  const own = (name: unknown) =>
    typeof name === 'string' &&
    (name === user.id || name.normalize('NFC').startsWith(`${user.id}/`));
  const where = `${caller} ${httpMethod} ${requestPath}`;
  // The path the server routed: dot segments resolved as URL parsing resolves them.
  const pathOnly = new URL(requestPath, 'http://localhost').pathname;
  const body = jsonOf(payload);

  const moveOrCopy = /^\/storage\/v1\/object\/(move|copy)$/.exec(pathOnly);
  if (moveOrCopy && body && !Array.isArray(body)) {
    const source = String(body.bucketId);
    const destination =
      typeof body.destinationBucket === 'string' && body.destinationBucket
        ? body.destinationBucket
        : source;
    if (PRIVATE_BUCKETS.has(source)) expect(own(body.sourceKey), where).toBe(true);
    if (PRIVATE_BUCKETS.has(destination)) expect(own(body.destinationKey), where).toBe(true);
    return;
  }

  const match =
    /^\/storage\/v1\/object\/(?:(authenticated|info|sign|list)\/)?([^/]*)(?:\/(.*))?$/.exec(
      pathOnly,
    );
  if (!match || !PRIVATE_BUCKETS.has(match[2]!)) return;
  const [, kind, , rest] = match;
  // Every seeded file holds "<owner id> <name>".
  expect(response.body.toString('latin1'), where).not.toContain(`${other.id} `);
  if (kind === 'list') {
    const prefix =
      body && !Array.isArray(body) && typeof body.prefix === 'string' ? body.prefix : '';
    const folder = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    for (const entry of jsonOf(response.body) as { name: string }[]) {
      expect(own(`${folder}${entry.name}`), where).toBe(true);
    }
    return;
  }
  if (rest !== undefined && !(kind === 'sign' && httpMethod === 'GET')) {
    expect(own(decodeURIComponentSafe(rest)), where).toBe(true);
  }
  if (rest === undefined && kind === 'sign') {
    for (const entry of jsonOf(response.body) as { path: string; signedURL: string | null }[]) {
      if (entry.signedURL !== null) expect(own(entry.path.normalize('NFC')), where).toBe(true);
    }
  }
  if (rest === undefined && httpMethod === 'DELETE') {
    for (const row of jsonOf(response.body) as { name: string }[])
      expect(own(row.name), where).toBe(true);
  }
}

interface FuzzRequest {
  method: string;
  /** Path and query after /storage/v1, as sent (percent-encoded). */
  path: string;
  caller: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** Names mostly from the users' folders, now and then with a hostile segment. */
const likelyPath = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(null).chain(() => fc.constantFrom(...names())) },
      { weight: 1, arbitrary: fc.constantFrom(...hostileSegments) },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map((s) => encodeURIComponent(s)) },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join('/'));
const likelyBucket = fc.constantFrom('files', 'files', 'files', 'limited', 'shared');
const likelyCaller = fc.constantFrom('alice', 'alice', 'bob', 'bob', 'anon', 'service', 'expired');
const uploadBody = fc.oneof(
  fc.record({
    'content-type': fc.constantFrom('text/plain', 'image/png', 'application/pdf', 'image/svg+xml'),
    body: fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
  }),
  multipartBody.map((body) => ({ 'content-type': 'multipart/form-data; boundary=XYZ', body })),
);

/** Requests an app would send, with names, callers and bodies drawn to reach the success paths. */
const plausibleRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('POST', 'PUT'),
      likelyBucket,
      likelyPath,
      likelyCaller,
      uploadBody,
      fc.boolean(),
    )
    .map(([method, b, p, caller, { body, ...headers }, upsert]) => ({
      method,
      path: `/object/${b}/${p}`,
      caller,
      headers: { ...headers, 'x-upsert': String(upsert) },
      body,
    })),
  fc
    .tuple(
      fc.constantFrom('GET', 'HEAD'),
      fc.constantFrom('', 'authenticated/', 'info/', 'public/'),
      likelyBucket,
      likelyPath,
      likelyCaller,
      fc.constantFrom('', '?download', '?download=x.svg'),
    )
    .map(([method, kind, b, p, caller, query]) => ({
      method,
      path: `/object/${kind}${b}/${p}${query}`,
      caller,
      headers: {},
      body: null,
    })),
  fc
    .tuple(
      likelyBucket,
      fc.option(likelyPath, { nil: '' }),
      likelyCaller,
      fc.constantFrom('', 'a', 'd'),
    )
    .map(([b, prefix, caller, search]) => ({
      method: 'POST',
      path: `/object/list/${b}`,
      caller,
      headers: { 'content-type': 'application/json' },
      body: json({ prefix: decodeURIComponentSafe(prefix), search, limit: 100, offset: 0 }),
    })),
  fc
    .tuple(likelyBucket, fc.array(likelyPath, { minLength: 1, maxLength: 3 }), likelyCaller)
    .map(([b, paths, caller]) => ({
      method: 'DELETE',
      path: `/object/${b}`,
      caller,
      headers: { 'content-type': 'application/json' },
      body: json({ prefixes: paths.map(decodeURIComponentSafe) }),
    })),
  fc.tuple(likelyBucket, likelyPath, likelyCaller).map(([b, p, caller]) => ({
    method: 'POST',
    path: `/object/sign/${b}/${p}`,
    caller,
    headers: { 'content-type': 'application/json' },
    body: json({ expiresIn: 60 }),
  })),
  fc
    .tuple(likelyBucket, fc.array(likelyPath, { minLength: 1, maxLength: 3 }), likelyCaller)
    .map(([b, paths, caller]) => ({
      method: 'POST',
      path: `/object/sign/${b}`,
      caller,
      headers: { 'content-type': 'application/json' },
      body: json({ expiresIn: 60, paths: paths.map(decodeURIComponentSafe) }),
    })),
  fc
    .tuple(fc.constantFrom('move', 'copy'), likelyBucket, likelyPath, likelyPath, likelyCaller)
    .map(([operation, b, from, to, caller]) => ({
      method: 'POST',
      path: `/object/${operation}`,
      caller,
      headers: { 'content-type': 'application/json' },
      body: json({
        bucketId: b,
        sourceKey: decodeURIComponentSafe(from),
        destinationKey: decodeURIComponentSafe(to),
      }),
    })),
);

/** Anything at all: any route, method, caller, headers and body. */
const chaoticRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.tuple(route, bucket, objectPath).map(([r, b, p]) => `${r}${b}/${p}`),
      },
      { weight: 1, arbitrary: fixedRoute },
      { weight: 1, arbitrary: fc.tuple(route, bucket).map(([r, b]) => `${r}${b}`) },
    ),
    fc.constantFrom('', '?download', '?download=x.svg', '?token=abc', '?cacheNonce=1&download='),
    method,
    who,
    optionalHeaders,
    body,
  )
  .map(([path, query, httpMethod, caller, headers, payload]) => ({
    method: httpMethod,
    path: `${path}${query}`,
    caller,
    headers,
    body: payload,
  }));

const fuzzRequest = fc.oneof(plausibleRequest, chaoticRequest);

/**
 * The runs of a property, kept until they end. fast-check ends a run still going at
 * `interruptAfterTimeLimit` by a race and leaves it running in the background: its request
 * could still be storing a file when the last test below counted files against rows (one file
 * more than rows, under load). A test waits for them once its property has ended.
 */
function runsOfProperty() {
  const running = new Set<Promise<unknown>>();
  return {
    track<T>(run: () => Promise<T>): Promise<T> {
      const promise = run();
      const settled = promise.catch(() => undefined);
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return promise;
    },
    ended: () => Promise.all(running),
  };
}

describe('storage: fuzzing the HTTP API', () => {
  it(
    'survives thousands of random and hostile requests without a 5xx or a leak',
    async () => {
      let runs = 0;
      const statuses = new Map<number, number>();
      const requests = runsOfProperty();
      await fc
        .assert(
          fc.asyncProperty(fuzzRequest, (request) =>
            requests.track(async () => {
              runs++;
              const token = tokenOf(request.caller);
              const headers: Record<string, string> = { ...request.headers };
              if (token) {
                headers.authorization = `Bearer ${token}`;
                headers.apikey = server.keys.anonKey;
              }
              const fullPath = `/storage/v1${request.path}`;
              const body =
                request.method === 'GET' || request.method === 'HEAD' ? null : request.body;
              const response = await rawRequest(request.method, fullPath, headers, body);
              const where = `${request.caller} ${request.method} ${fullPath}: ${response.body}`;
              const routed = new URL(fullPath, 'http://localhost').pathname;
              if (!routed.startsWith('/storage/v1/')) {
                // Dot segments took the request out of storage, as URL parsing resolves them; the
                // app's pages answer it (503 here: the test server has no built app). It must never
                // be a failure of the server, nor a storage answer.
                expect(response.status, where).not.toBe(500);
                expect(response.headers['content-type'] ?? '', where).not.toContain('json');
                return;
              }
              expect(response.status, where).toBeGreaterThanOrEqual(200);
              expect(response.status, where).toBeLessThan(500);
              checkRlsView(request.caller, request.method, fullPath, body, response);
              statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            }),
          ),
          { numRuns: 3000, interruptAfterTimeLimit: TIME_LIMIT_MS },
        )
        .finally(requests.ended);
      // However loaded the machine, a real number of requests went through, and they reached
      // the successful paths as well as the refusals.
      expect(runs).toBeGreaterThan(300);
      console.log('storage fuzz: status counts', Object.fromEntries(statuses));
      const successes = [...statuses]
        .filter(([status]) => status < 300)
        .reduce((n, [, c]) => n + c, 0);
      expect(successes).toBeGreaterThan(runs / 20);
    },
    TIME_LIMIT_MS + 60_000,
  );

  it('round-trips any bytes through multipart uploads split at any chunk boundary', async () => {
    const uploads = runsOfProperty();
    await fc
      .assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 4000 }),
          fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 8 }),
          // Near misses of the delimiter "\r\n--XYZ", which a sender never puts in content.
          fc.constantFrom('\r\n--XY', '--XYZ--', '\n--XYZ', '\r\n--XYz', '\r\n\r\n', '\r'),
          (content, chunkSizes, trap) =>
            uploads.track(async () => {
              // Put boundary look-alikes inside the content, where a naive parser would stop.
              const file = Buffer.concat([
                Buffer.from(trap),
                Buffer.from(content),
                Buffer.from(trap),
              ]);
              // A near miss next to the content can complete the real delimiter ("\r\n--XY" + "Z").
              fc.pre(!file.includes('\r\n--XYZ'));
              const whole = Buffer.concat([
                Buffer.from(
                  '--XYZ\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n60\r\n',
                ),
                Buffer.from('--XYZ\r\nContent-Disposition: form-data; name=""; filename="f"\r\n'),
                Buffer.from('Content-Type: application/octet-stream\r\n\r\n'),
                file,
                Buffer.from('\r\n--XYZ--\r\n'),
              ]);
              let offset = 0;
              let turn = 0;
              const stream = new ReadableStream<Uint8Array>({
                pull(controller) {
                  if (offset >= whole.length) return controller.close();
                  const size = chunkSizes[turn++ % chunkSizes.length]!;
                  controller.enqueue(whole.subarray(offset, offset + size));
                  offset += size;
                },
              });
              const name = `${alice.id}/roundtrip.bin`;
              const upload = await storageFetch(server, `/object/files/${name}`, {
                method: 'POST',
                token: alice.token,
                headers: {
                  'content-type': 'multipart/form-data; boundary=XYZ',
                  'x-upsert': 'true',
                },
                body: stream,
                duplex: 'half',
              } as RequestInit);
              expect(upload.status, await upload.clone().text()).toBe(200);
              const download = await storageFetch(server, `/object/files/${name}`, {
                token: alice.token,
              });
              expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
            }),
        ),
        { numRuns: 150, interruptAfterTimeLimit: 15_000 },
      )
      .finally(uploads.ended);
  }, 60_000);

  it('left nothing outside the storage directory and no file without its row', async () => {
    const all = await filesUnder(server.dataDir);
    expect(outsideStorageAndDatabase(all)).toEqual(outsideStorage);
    const stored = all.filter((file) => file.startsWith('storage/'));
    for (const file of stored)
      expect(file).toMatch(/^storage\/objects\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    const { rows } = await server.db
      .serverWork()
      .query<{ version: string }>('select version from storage.objects order by version');
    expect(stored.map((file) => path.basename(file)).sort()).toEqual(
      rows.map((row) => row.version),
    );
  });
});
