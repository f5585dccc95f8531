import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rest } from './rest-helpers.ts';

let server: TestServer;
let db: SupabaseClient;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
  db = server.service();
  await server.db.serverWork().exec(`
    create table kinds (id int primary key, label text not null);
    create table items (id int primary key, kind_id int references kinds (id), name text not null, price numeric);
    insert into kinds values (1, 'tool'), (2, 'food');
    insert into items values (1, 1, 'hammer', 12), (2, 2, 'apple', 1), (3, 1, 'saw', 20);

    create function add_numbers(a int, b int) returns int language sql immutable as 'select a + b';
    create function greet(name text default 'world') returns text language sql stable
      as $$ select 'Hello, ' || name $$;
    create function list_items(max_price numeric default null) returns setof items language sql stable
      as $$ select * from items where max_price is null or price <= max_price order by id $$;
    create function item_labels() returns table (item_id int, label text) language sql stable
      as $$ select id, upper(name) from items order by id $$;
    create function cheapest() returns items language sql stable
      as $$ select * from items order by price limit 1 $$;
    create function price_stats(out total int, out top numeric) language sql stable
      as $$ select count(*)::int, max(price) from items $$;
    create function names_series(n int) returns setof text language sql immutable
      as $$ select 'n' || g from generate_series(1, n) g $$;
    create function rename_item(item_id int, new_name text) returns void language plpgsql
      as $$ begin update items set name = new_name where id = item_id; end $$;
    create function fail_with(msg text) returns void language plpgsql
      as $$ begin raise exception '%', msg; end $$;
    create function echo_body(jsonb) returns jsonb language sql immutable as 'select $1';
    create function tag_list(tags text[]) returns int language sql immutable as 'select cardinality(tags)';
    create function overloaded(x int) returns text language sql immutable as $$ select 'int' $$;
    create function overloaded(x text) returns text language sql immutable as $$ select 'text' $$;
    create function fail_code(code text, msg text default 'failed on purpose') returns void
      language plpgsql as $$ begin raise exception '%', msg using errcode = code; end $$;
    create function reprice(factor numeric) returns setof items language sql
      as $$ update items set price = price * factor returning * $$;
    create function reprice_count(factor numeric) returns int language sql
      as $$ with changed as (update items set price = price * factor returning 1) select count(*)::int from changed $$;
    create function writes_in_get() returns int language plpgsql
      as $$ begin insert into kinds values (99, 'sneaky'); return 1; end $$;
  `);
});

afterAll(async () => {
  await server?.close();
});

describe('rpc result shapes', () => {
  it('returns a scalar as the bare JSON value, by POST and by GET', async () => {
    expect(await db.rpc('add_numbers', { a: 2, b: 3 })).toMatchObject({
      data: 5,
      error: null,
      status: 200,
    });
    expect((await db.rpc('add_numbers', { a: 2, b: 3 }, { get: true })).data).toBe(5);
    expect((await db.rpc('greet')).data).toBe('Hello, world');
    expect((await db.rpc('greet', { name: 'Ann' }, { get: true })).data).toBe('Hello, Ann');
  });

  it('returns a set of rows as an array that select, filters, order and limit apply to', async () => {
    const all = await db.rpc('list_items');
    expect(all.data).toEqual([
      { id: 1, kind_id: 1, name: 'hammer', price: 12 },
      { id: 2, kind_id: 2, name: 'apple', price: 1 },
      { id: 3, kind_id: 1, name: 'saw', price: 20 },
    ]);
    const shaped = await db
      .rpc('list_items', { max_price: 15 })
      .select('name, kinds(label)')
      .gt('price', 0)
      .order('name', { ascending: false })
      .limit(1);
    expect(shaped.data).toEqual([{ name: 'hammer', kinds: { label: 'tool' } }]);
    const one = await db.rpc('list_items').eq('id', 3).single();
    expect(one.data).toMatchObject({ name: 'saw' });
    const counted = await db.rpc('list_items', {}, { count: 'exact' }).limit(1);
    expect(counted.count).toBe(3);
    expect(counted.status).toBe(206);
    const head = await db.rpc('list_items', {}, { head: true, count: 'exact' });
    expect({ data: head.data, count: head.count }).toEqual({ data: null, count: 3 });
  });

  it('returns TABLE(...) results and sets of scalars as arrays', async () => {
    expect((await db.rpc('item_labels').lt('item_id', 3)).data).toEqual([
      { item_id: 1, label: 'HAMMER' },
      { item_id: 2, label: 'APPLE' },
    ]);
    expect((await db.rpc('names_series', { n: 3 })).data).toEqual(['n1', 'n2', 'n3']);
    expect((await db.rpc('names_series', { n: 3 }).range(1, 1)).data).toEqual(['n2']);
  });

  it('returns a single composite as an object, from a row type or OUT parameters', async () => {
    expect((await db.rpc('cheapest')).data).toEqual({ id: 2, kind_id: 2, name: 'apple', price: 1 });
    expect((await db.rpc('price_stats')).data).toEqual({ total: 3, top: 20 });
  });

  it('answers 204 with no body for a void function, and its writes persist', async () => {
    const result = await db.rpc('rename_item', { item_id: 2, new_name: 'pear' });
    expect(result).toMatchObject({ data: null, error: null, status: 204 });
    expect((await db.from('items').select('name').eq('id', 2)).data).toEqual([{ name: 'pear' }]);
  });

  it('passes the whole body to a function with one unnamed jsonb parameter', async () => {
    const body = { anything: [1, 2, { deep: true }], n: null };
    expect((await db.rpc('echo_body', body)).data).toEqual(body);
  });

  it('converts array arguments from JSON and from the query string', async () => {
    expect((await db.rpc('tag_list', { tags: ['a', 'b', 'c'] })).data).toBe(3);
    expect((await db.rpc('tag_list', { tags: ['a', 'b'] }, { get: true })).data).toBe(2);
  });
});

describe('rpc with Prefer: handling=strict, max-affected', () => {
  // supabase-js offers maxAffected() for PostgREST 13, which the embedded backend speaks.
  type Postgrest13 = {
    __InternalSupabase: { PostgrestVersion: '13' };
    public: {
      Tables: Record<never, never>;
      Views: Record<never, never>;
      Functions: Record<string, { Args: { factor: number }; Returns: unknown }>;
    };
  };
  const db13 = () => db as unknown as SupabaseClient<Postgrest13>;
  const prices = async () =>
    (await db.from('items').select('id, price').order('id')).data as { price: number }[];

  it('answers 400 PGRST124 and rolls back when a function returns more rows than allowed', async () => {
    const before = await prices();
    const { error, status } = await db13().rpc('reprice', { factor: 2 }).maxAffected(2);
    expect(status).toBe(400);
    expect(error).toEqual({
      code: 'PGRST124',
      details: 'The query affects 3 rows',
      hint: null,
      message: 'Query result exceeds max-affected preference constraint',
    });
    expect(await prices()).toEqual(before);
  });

  it('runs the function when it stays within the limit', async () => {
    const before = await prices();
    const { data, error, status } = await db13().rpc('reprice', { factor: 1 }).maxAffected(3);
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toHaveLength(3);
    expect(await prices()).toEqual(before);
    const raw = await rest(server, '/rpc/reprice', {
      method: 'POST',
      body: '{"factor":1}',
      headers: { Prefer: 'handling=strict, max-affected=3' },
    });
    expect(raw.headers.get('preference-applied')).toBe('handling=strict, max-affected=3');
  });

  it('refuses a function that returns one value with 400 PGRST128, before calling it', async () => {
    const before = await prices();
    const { error, status } = await db13().rpc('reprice_count', { factor: 2 }).maxAffected(5);
    expect(status).toBe(400);
    expect(error).toEqual({
      code: 'PGRST128',
      details: null,
      hint: null,
      message:
        'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
    });
    expect(await prices()).toEqual(before);
    const lenient = await rest(server, '/rpc/reprice_count', {
      method: 'POST',
      body: '{"factor":1}',
      headers: { Prefer: 'max-affected=1' },
    });
    expect(lenient.status).toBe(200);
  });
});

describe('rpc errors', () => {
  it('answers 400 with the raised message for RAISE EXCEPTION (P0001)', async () => {
    const { error, status } = await db.rpc('fail_with', { msg: 'You cannot deactivate yourself' });
    expect(status).toBe(400);
    expect(error).toEqual({
      code: 'P0001',
      details: null,
      hint: null,
      message: 'You cannot deactivate yourself',
    });
  });

  it('runs GET in a read-only transaction: a write is 405 (25006) and nothing is written', async () => {
    const { error, status } = await db.rpc('writes_in_get', {}, { get: true });
    expect(status).toBe(405);
    expect(error?.code).toBe('25006');
    expect((await db.from('kinds').select('id').eq('id', 99)).data).toEqual([]);
  });

  it('answers 404 PGRST202 for an unknown function or arguments', async () => {
    const unknown = await db.rpc('add_numbrs', { a: 1, b: 2 });
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.add_numbrs(a, b) in the schema cache',
      details:
        'Searched for the function public.add_numbrs with parameters a, b or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.add_numbers',
    });
    const wrongArgs = await db.rpc('add_numbers', { a: 1 });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error?.hint).toBe(
      'Perhaps you meant to call the function public.add_numbers(a, b)',
    );
  });

  it('answers 300 PGRST203 for overloads it cannot tell apart', async () => {
    const { error, status } = await db.rpc('overloaded', { x: 1 });
    expect(status).toBe(300);
    expect(error?.code).toBe('PGRST203');
    expect(error?.message).toContain('Could not choose the best candidate function between:');
  });

  it('answers 405 PGRST101 for other methods', async () => {
    const raw = await rest(server, '/rpc/add_numbers', { method: 'PATCH', body: '{}' });
    expect(raw.status).toBe(405);
    expect(raw.json).toMatchObject({
      code: 'PGRST101',
      message: 'Cannot use the PATCH method on RPC',
    });
  });

  it('answers 400 for arguments of the wrong type', async () => {
    const { error, status } = await db.rpc('add_numbers', { a: 'one', b: 2 });
    expect(status).toBe(400);
    expect(error?.code).toBe('22P02');
  });

  it('refuses filters on a function that returns a scalar', async () => {
    const raw = await rest(server, '/rpc/add_numbers?a=1&b=2&select=x');
    expect(raw.status).toBe(400);
  });

  it('maps SQLSTATEs to HTTP statuses as PostgREST does', async () => {
    const cases: [string, number, string?][] = [
      ['23505', 409],
      ['23503', 409],
      ['23502', 400],
      ['22P02', 400],
      ['25006', 405],
      ['42883', 404],
      ['42P01', 404],
      ['42501', 403],
      ['42P17', 500],
      ['P0002', 500],
      ['XX000', 500],
      ['40001', 500],
      ['53300', 503],
      ['53400', 500],
      ['08006', 503],
      ['54000', 400],
      ['PT418', 418],
      ['PT999', 500],
      ['22023', 401, 'role "nobody" does not exist'],
      ['22023', 400, 'something else'],
      ['21000', 400, 'UPDATE requires a WHERE clause'],
      ['21000', 500, 'more than one row returned by a subquery used as an expression'],
    ];
    for (const [code, status, msg] of cases) {
      const { error, status: actual } = await db.rpc('fail_code', {
        code,
        ...(msg ? { msg } : {}),
      });
      expect([code, actual], msg).toEqual([code, status]);
      expect(error).toMatchObject({ code, message: msg ?? 'failed on purpose' });
    }
  });
});
