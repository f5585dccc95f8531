import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareRead } from '../../server/rest/handle-read.ts';
import type { RestRequest } from '../../server/rest/handler-types.ts';
import { negotiateMedia } from '../../server/rest/negotiate.ts';
import { parsePreferences } from '../../server/rest/preferences.ts';
import { parseQuery } from '../../server/rest/query-params.ts';
import { ReadTemplates, readShape } from '../../server/rest/read-templates.ts';
import { reloadSchemaCache, schemaCacheFor } from '../../server/rest/schema-cache.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rest } from './rest-helpers.ts';

// A table read planned once per shape, its filter values bound again for each request of the
// shape (server/rest/read-templates.ts). Each test first reads a shape twice (a template is
// made at a shape's second request), so that the requests after it are answered from its
// template, and expects what planning them afresh answers.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  await server.db.serverWork().exec(`
    create table tpl_items (id int primary key, name text not null, at timestamptz not null);
    insert into tpl_items values
      (1, 'a', '2024-01-01 10:00+00'), (2, 'b', '2024-01-02 10:00+00'),
      (3, 'a b', '2024-01-03 10:00+00'), (4, '(x)', '2024-01-04 10:00+00'),
      (5, 'c.d,e', '2024-01-05 10:00+00');
    create table tpl_others (id int primary key, name text not null, at timestamptz not null);
    insert into tpl_others values (1, 'other a', '2024-02-01 10:00+00'), (2, 'other b', '2024-02-02 10:00+00');
  `);
});

afterAll(async () => {
  await server?.close();
});

const ids = async (path: string, init: Parameters<typeof rest>[2] = {}) => {
  const answer = await rest(server, path, init);
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { id: number }[]).map((row) => row.id);
};

describe('table reads of one shape', () => {
  it("makes a shape's template at its second request, and binds a third's values", async () => {
    const cache = await schemaCacheFor(server.db).get(server.db.serverWork());
    const templates = new ReadTemplates();
    const request = (raw: string): RestRequest => ({
      method: 'GET',
      resource: 'tpl_items',
      query: parseQuery(raw),
      caller: { role: 'anon', claims: { role: 'anon' }, token: null },
      prefs: parsePreferences(null),
      media: negotiateMedia(null),
      profileNegotiated: false,
      limits: server.config.api,
    });
    const shapeOf = (raw: string) => readShape('GET', 'tpl_items', raw, new Headers())!;
    const learn = (raw: string) => templates.learn(cache, shapeOf(raw), request(raw), null);
    learn('select=id&name=eq.a');
    expect(templates.prepare(cache, shapeOf('select=id&name=eq.c'))).toBeNull();
    learn('select=id&name=eq.b');
    const third = templates.prepare(cache, shapeOf('select=id&name=eq.c'));
    const fresh = prepareRead(cache, request('select=id&name=eq.c'));
    expect(third?.prepared.sql).toBe(fresh.sql);
    expect(third?.prepared.params).toEqual(fresh.params);
  });

  it("binds each request's own values", async () => {
    const byName = (value: string) => ids(`/tpl_items?select=id&order=id&name=eq.${value}`);
    await byName('first');
    await byName('second');
    expect(await byName('a')).toEqual([1]);
    expect(await byName('b')).toEqual([2]);
    expect(await byName('a%20b')).toEqual([3]);
    expect(await byName('a+b')).toEqual([3]);
    expect(await byName('c.d,e')).toEqual([5]);
    expect(await byName('%28x%29')).toEqual([4]);
    expect(await byName('nobody')).toEqual([]);
    const between = (low: number, high: number) =>
      ids(`/tpl_items?select=id&id=gte.${low}&id=lte.${high}&order=id`);
    await between(0, 0);
    await between(0, 0);
    expect(await between(1, 2)).toEqual([1, 2]);
    expect(await between(2, 4)).toEqual([2, 3, 4]);
    expect(await between(4, 2)).toEqual([]);
    const except = (name: string, id: number) =>
      ids(`/tpl_items?select=id&name=neq.${name}&id=lt.${id}&order=id`);
    await except('x', 0);
    await except('x', 0);
    expect(await except('a', 4)).toEqual([2, 3]);
    expect(await except('b', 3)).toEqual([1]);
  });

  it('answers a value the database refuses as it refused it before', async () => {
    await ids('/tpl_items?select=id&id=gt.5&order=id');
    expect(await ids('/tpl_items?select=id&id=gt.3&order=id')).toEqual([4, 5]);
    const refused = await rest(server, '/tpl_items?select=id&id=gt.three&order=id');
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: '22P02' });
    expect(await ids('/tpl_items?select=id&id=gt.4&order=id')).toEqual([5]);
  });

  it("checks each request's values as the parser does: brackets nested too deep, NUL", async () => {
    await ids('/tpl_items?select=id&name=eq.b');
    expect(await ids('/tpl_items?select=id&name=eq.a')).toEqual([1]);
    const deep = await rest(server, `/tpl_items?select=id&name=eq.${'('.repeat(101)}`);
    expect(deep.status).toBe(400);
    expect(deep.json).toMatchObject({ code: 'PGRST100' });
    const nul = await rest(server, '/tpl_items?select=id&name=eq.a%00');
    expect(nul.status).toBe(400);
    expect(nul.json).toMatchObject({
      code: 'PGRST100',
      message: 'Query parameters must not contain NUL characters',
    });
  });

  it('answers each `in` list, a shape of its own, with its own rows', async () => {
    for (const id of [1, 2, 3]) {
      expect(await ids(`/tpl_items?select=id&id=in.(${id})`)).toEqual([id]);
    }
  });

  it('is a shape of its table: another table with the same query reads its own rows', async () => {
    await ids('/tpl_items?select=id,name&id=eq.2');
    expect(await ids('/tpl_items?select=id,name&id=eq.1')).toEqual([1]);
    const other = await rest(server, '/tpl_others?select=id,name&id=eq.2');
    expect(other.json).toEqual([{ id: 2, name: 'other b' }]);
  });

  it('is a shape of its method: GET and HEAD each answer as they do alone', async () => {
    // A shape no other test reads.
    const path = (name: string) => `/tpl_items?select=id&name=eq.${name}&limit=10`;
    await rest(server, path('a'), { method: 'HEAD' });
    const head = await rest(server, path('b'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(await ids(path('a'))).toEqual([1]);
    const again = await rest(server, path('b'), { method: 'HEAD' });
    expect([...again.headers].filter(([name]) => name !== 'date')).toEqual(
      [...head.headers].filter(([name]) => name !== 'date'),
    );
  });

  it('is a shape of every header the read depends on', async () => {
    const path = (id: number) => `/tpl_items?select=id,name&id=lte.${id}&order=id`;
    await rest(server, path(1));
    const plain = await rest(server, path(2));
    expect(plain.headers.get('content-range')).toBe('0-1/*');
    expect(plain.headers.get('content-profile')).toBeNull();

    const counted = await rest(server, path(3), { headers: { Prefer: 'count=exact' } });
    expect(counted.headers.get('content-range')).toBe('0-2/3');

    const csv = await rest(server, path(2), { headers: { Accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toBe('id,name\n1,a\n2,b');

    const ranged = await rest(server, path(3), { headers: { Range: '1-1' } });
    expect(ranged.json).toEqual([{ id: 2, name: 'b' }]);
    expect(ranged.headers.get('content-range')).toBe('1-1/*');

    const one = await rest(server, path(1), {
      headers: { Accept: 'application/vnd.pgrst.object+json' },
    });
    expect(one.json).toEqual({ id: 1, name: 'a' });

    const profiled = await rest(server, path(1), { headers: { 'Accept-Profile': 'public' } });
    expect(profiled.headers.get('content-profile')).toBe('public');
    const elsewhere = await rest(server, path(1), { headers: { 'Accept-Profile': 'private' } });
    expect(elsewhere.status).toBe(406);
    expect(elsewhere.json).toMatchObject({ code: 'PGRST106' });
  });

  it('writes times in the zone each request asks for', async () => {
    const at = async (id: number, zone: string) => {
      const answer = await rest(server, `/tpl_items?select=at&id=eq.${id}`, {
        headers: { Prefer: `timezone=${zone}` },
      });
      return (answer.json as { at: string }[])[0]?.at;
    };
    expect(await at(1, 'America/Los_Angeles')).toBe('2024-01-01T02:00:00-08:00');
    expect(await at(2, 'America/Los_Angeles')).toBe('2024-01-02T02:00:00-08:00');
    expect(await at(3, 'America/Los_Angeles')).toBe('2024-01-03T02:00:00-08:00');
    expect(await at(2, 'Asia/Kolkata')).toBe('2024-01-02T15:30:00+05:30');
  });

  it('plans a shape again once the schema cache is reloaded', async () => {
    // A JSON path reads a json column as it is and any other through to_jsonb: the statement
    // of one shape changes with the column's type.
    await server.db.serverWork().exec(`
      create table tpl_grows (id int primary key, data jsonb);
      insert into tpl_grows values (1, '{"k": "v"}'), (2, '{"k": "w"}');
    `);
    await reloadSchemaCache(server.db);
    const read = (id: number) => rest(server, `/tpl_grows?select=id,k:data->>k&id=eq.${id}`);
    await read(2);
    expect((await read(1)).json).toEqual([{ id: 1, k: 'v' }]);
    await server.db.serverWork().exec(`alter table tpl_grows alter column data type text`);
    await reloadSchemaCache(server.db);
    const after = await read(2);
    expect(after.status, after.text).toBe(200);
    expect(after.json).toEqual([{ id: 2, k: null }]);
  });
});
