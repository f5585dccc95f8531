import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rest } from './rest-helpers.ts';
import { storageFetch } from './storage-helpers.ts';

// The rule of the embedded backend: what it does not support answers the service's own error,
// never a 2xx that differs from Supabase's answer. Each row is a request and the answer
// PostgREST (docs.postgrest.org, "Errors" and "Preferences") or Supabase Storage (its error
// codes and routes) gives it; preferences PostgREST ignores are answered as it answers them.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  await server.db.serverWork().exec(`
    create table people (id int primary key, name text not null);
    create table pairs (
      id int primary key,
      first_id int not null references people (id),
      second_id int not null references people (id)
    );
    create table notes (id int primary key, person_id int references people (id), body text);
    insert into people values (1, 'Ann'), (2, 'Bob'), (3, 'Cat');
    insert into pairs values (1, 1, 2);
    insert into notes values (1, 1, 'a'), (2, 1, 'b');
    create function plain_count() returns int language sql as 'select count(*)::int from people';
    insert into storage.buckets (id, name, public) values ('files', 'files', false);
  `);
  await server.service().storage.from('files').upload('a.txt', 'a');
});
afterAll(async () => {
  await server?.close();
});

interface RestCase {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  /** The error's code, or for an answer PostgREST also gives, its `Preference-Applied`. */
  code?: string;
  applied?: string | null;
}

const PREFER: RestCase[] = [
  {
    name: 'an unknown preference with handling=strict',
    path: '/people?select=id',
    headers: { Prefer: 'handling=strict, frobnicate=yes' },
    status: 400,
    code: 'PGRST122',
  },
  {
    name: 'an invalid count with handling=strict',
    path: '/people?select=id',
    headers: { Prefer: 'handling=strict, count=sometimes' },
    status: 400,
    code: 'PGRST122',
  },
  {
    name: 'an unknown preference, lenient: ignored',
    path: '/people?select=id',
    headers: { Prefer: 'frobnicate=yes' },
    status: 200,
    applied: null,
  },
  {
    name: 'tx=rollback, not allowed by the default configuration: ignored',
    path: '/people?select=id',
    headers: { Prefer: 'tx=rollback' },
    status: 200,
    applied: null,
  },
  {
    name: 'max-affected past the limit on PATCH',
    path: '/people?id=gt.0',
    method: 'PATCH',
    body: '{"name":"X"}',
    headers: { Prefer: 'handling=strict, max-affected=1' },
    status: 400,
    code: 'PGRST124',
  },
  {
    name: 'max-affected on a function that returns one value',
    path: '/rpc/plain_count',
    method: 'POST',
    body: '{}',
    headers: { Prefer: 'handling=strict, max-affected=1' },
    status: 400,
    code: 'PGRST128',
  },
  {
    name: 'a Range header that ends before it starts',
    path: '/people?select=id',
    headers: { Range: '2-1', 'Range-Unit': 'items' },
    status: 416,
    code: 'PGRST103',
  },
];

const SELECT: RestCase[] = [
  { name: 'an aggregate', path: '/people?select=count()', status: 400, code: 'PGRST123' },
  {
    name: 'one relation embedded twice without aliases',
    path: '/pairs?select=people!first_id(name),people!second_id(name)',
    status: 400,
    code: '42712',
  },
  {
    name: 'a spread of a to-many embed',
    path: '/people?select=id,...notes(body)',
    status: 400,
    code: 'PGRST119',
  },
  { name: 'an unknown column', path: '/people?select=nickname', status: 400, code: '42703' },
  {
    name: 'an unknown relationship',
    path: '/people?select=id,pairs_of_pairs(*)',
    status: 400,
    code: 'PGRST200',
  },
  { name: 'a malformed select', path: '/people?select=id,(', status: 400, code: 'PGRST100' },
  {
    name: 'an ambiguous embed',
    path: '/pairs?select=people(name)',
    status: 300,
    code: 'PGRST201',
  },
  {
    name: 'PUT',
    path: '/people?id=eq.1',
    method: 'PUT',
    body: '{}',
    status: 405,
    code: 'PGRST117',
  },
  {
    name: 'DELETE on a function',
    path: '/rpc/plain_count',
    method: 'DELETE',
    status: 405,
    code: 'PGRST101',
  },
];

describe.each([
  ['Prefer values', PREFER],
  ['select shapes and methods', SELECT],
])('PostgREST: %s', (_title, cases) => {
  it.each(cases)('$name → $status', async (c) => {
    const answer = await rest(server, c.path, {
      method: c.method ?? 'GET',
      ...(c.headers ? { headers: c.headers } : {}),
      ...(c.body !== undefined ? { body: c.body } : {}),
    });
    expect(answer.status).toBe(c.status);
    if (c.code !== undefined) {
      expect(answer.json).toMatchObject({ code: c.code });
      expect(Object.keys(answer.json as object).sort()).toEqual([
        'code',
        'details',
        'hint',
        'message',
      ]);
    }
    if (c.applied !== undefined) {
      expect(answer.headers.get('preference-applied')).toBe(c.applied);
    }
  });
});

describe('PostgREST: tx=rollback with the default db_tx_end ("commit")', () => {
  it('commits the write and names no tx in Preference-Applied, as PostgREST', async () => {
    const db = server.service();
    const inserted = await db.from('people').insert({ id: 9, name: 'Dee' }).select().rollback();
    expect(inserted).toMatchObject({ status: 201, data: [{ id: 9, name: 'Dee' }], error: null });
    expect((await db.from('people').select('name').eq('id', 9)).data).toEqual([{ name: 'Dee' }]);
    const raw = await rest(server, '/people?id=eq.9', {
      method: 'DELETE',
      headers: { Prefer: 'tx=rollback, return=minimal' },
    });
    expect(raw.status).toBe(204);
    expect(raw.headers.get('preference-applied')).toBe('return=minimal');
    expect((await db.from('people').select('name').eq('id', 9)).data).toEqual([]);
  });
});

interface StorageCase {
  name: string;
  path: string;
  method: string;
  body?: string;
  /** HTTP status (Storage sends 400 for most client errors) and the body's statusCode and code. */
  status: number;
  statusCode: string;
  code: string;
}

const STORAGE: StorageCase[] = [
  {
    name: 'the list-v2 route, never an upload into a bucket named list-v2',
    path: '/object/list-v2/files',
    method: 'POST',
    body: '{"prefix":""}',
    status: 404,
    statusCode: '404',
    code: 'NotFound',
  },
  {
    name: 'a signed URL with a transform',
    path: '/object/sign/files/a.txt',
    method: 'POST',
    body: '{"expiresIn":60,"transform":{"width":10}}',
    status: 400,
    statusCode: '409',
    code: 'FeatureNotEnabled',
  },
  {
    name: 'an image transformation address',
    path: '/render/image/authenticated/files/a.txt?width=10',
    method: 'GET',
    status: 404,
    statusCode: '404',
    code: 'NotFound',
  },
  {
    name: 'GET of a listing path reads a bucket named list, as Storage routes it',
    path: '/object/list/files',
    method: 'GET',
    status: 400,
    statusCode: '404',
    code: 'NoSuchBucket',
  },
  {
    name: 'info of a missing object',
    path: '/object/info/files/missing.txt',
    method: 'GET',
    status: 400,
    statusCode: '404',
    code: 'NoSuchKey',
  },
  {
    name: 'a missing bucket',
    path: '/bucket/missing',
    method: 'GET',
    status: 400,
    statusCode: '404',
    code: 'NoSuchBucket',
  },
];

describe('Storage: paths and options', () => {
  it.each(STORAGE)('$name → $status $code', async (c) => {
    const response = await storageFetch(server, c.path, {
      method: c.method,
      ...(c.body !== undefined
        ? { body: c.body, headers: { 'Content-Type': 'application/json' } }
        : {}),
    });
    expect(response.status).toBe(c.status);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ statusCode: c.statusCode, code: c.code });
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  });
});
